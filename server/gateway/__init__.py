"""Websocket gateway, HTTP routes, auth and sessions."""
