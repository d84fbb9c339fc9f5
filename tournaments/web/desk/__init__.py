"""The director's pages, under /desk/."""
