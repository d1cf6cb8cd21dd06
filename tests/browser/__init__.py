"""Browser tests: a real server process and a real Chromium playing through the web client."""
