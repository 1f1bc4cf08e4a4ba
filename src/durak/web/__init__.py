"""The browser client: static files served by ``durak serve``."""
