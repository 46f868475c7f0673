"""Real-browser tests: Textual apps served by textual-serve, driven in headless Chromium."""
