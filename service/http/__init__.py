"""The HTTP edge: the app factory, the shared request context, the /v1 routes, the models that
validate and document them, the OpenAPI document, metrics, the polite limits and gunicorn."""
