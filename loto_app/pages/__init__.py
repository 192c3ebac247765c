"""The app's pages: one module per page, each exposing a component function.

Routes are registered in `loto_app.loto_app` (one place to read the whole site map).
"""
