"""What the server answers over HTTP: the pages, the JSON API's routes (rooms, matches,
games, the referee and its photo endpoint), the guards of a public server, and the uvicorn
protocols that serve the requests and the room websockets."""
