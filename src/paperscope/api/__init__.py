"""The JSON API (under /api) and the app that serves it with the web pages."""

from paperscope.api.app import create_app

__all__ = ["create_app"]
