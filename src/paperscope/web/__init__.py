"""Server-rendered web pages (Jinja2) over the Library, with a little JavaScript of our own."""
