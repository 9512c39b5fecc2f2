"""The viewer's refusals: a message for the page and the HTTP status that carries it."""

from knightgym._checks import shortened  # noqa: F401 - how every refusal quotes a request


class ViewerError(ValueError):
    """A request the viewer refuses; its message is shown in the page. It never quotes
    the request whole (shortened), and the request changes nothing."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status
