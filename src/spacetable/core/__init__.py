"""What every game shares (DESIGN section 1): for now the game registry; the match state
machine's base and the events move here as the package grows into its layout."""
