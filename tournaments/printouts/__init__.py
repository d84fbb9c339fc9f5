"""The sheets an event prints: table cards, draws, score sheets, standings."""
