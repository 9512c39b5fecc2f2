"""Who may drive the viewer: its user's browser, on the address it printed, and nothing else.

A web page the user visits while the viewer runs can send requests to 127.0.0.1, and a
page served from a name the attacker points at 127.0.0.1 (DNS rebinding) can even read
the answers. As Jupyter does, the viewer therefore asks of every request:
- the Host header names the server itself (a loopback name, or the --host address, with
  its port), which a rebinding page cannot fake;
- an Origin header, where the browser sends one, is the server's own, and a POST that the
  browser says comes from another site (Sec-Fetch-Site) is refused;
- the launch's secret token: in the URL printed at start (``/?token=T``), which turns it
  into a cookie that browsers send only with the page's own requests (SameSite=Strict,
  HttpOnly), or in an ``Authorization: token T`` header (scripts and tests).
POST bodies must be JSON (transport.py), which no cross-site form can send without a CORS
preflight, and the preflight (OPTIONS) allows nothing.
"""

import hmac
import ipaddress
import secrets
import urllib.parse

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


class Access:
    """The checks for one server: its token, and the hosts and origins that are its own."""

    def __init__(self, host, token=None):
        self.host = host
        self.token = token or secrets.token_urlsafe(32)
        self.port = None
        self._hosts = set()

    def bind(self, port):
        """Called once the port is known: the Host values this server answers to."""
        self.port = port
        names = set(LOOPBACK_NAMES)
        if not _is_wildcard(self.host):
            names.add(_bracketed(self.host))
        self._hosts = {f"{name}:{port}" for name in names}
        if port == 80:
            self._hosts |= names

    def url(self, host, port):
        shown = "127.0.0.1" if _is_wildcard(host) else _bracketed(host)
        return f"http://{shown}:{port}/?token={self.token}"

    def cookie(self):
        """The session cookie, named by the port so that two viewers do not clash."""
        return f"{self.cookie_name()}={self.token}; Path=/; HttpOnly; SameSite=Strict"

    def cookie_name(self):
        return f"knightgym-view-{self.port}"

    def refusal(self, headers, method):
        """Why a request that does not come from this server's own page is refused, or
        None."""
        host = (headers.get("Host") or "").lower()
        if host not in self._hosts:
            return "this server answers only requests addressed to itself (Host)"
        origin = headers.get("Origin")
        if origin is not None and origin.lower() not in {f"http://{h}" for h in self._hosts}:
            return "this server answers only its own page (Origin)"
        site = headers.get("Sec-Fetch-Site", "same-origin")
        if method != "GET" and site not in ("same-origin", "none"):
            return "this server answers only its own page (Sec-Fetch-Site)"
        return None

    def token_in(self, query):
        given = query.get("token", [""])[0]
        return self._matches(given)

    def authorized(self, headers):
        scheme, _, given = (headers.get("Authorization") or "").partition(" ")
        if scheme.lower() == "token" and self._matches(given.strip()):
            return True
        for item in (headers.get("Cookie") or "").split(";"):
            name, _, value = item.strip().partition("=")
            if name == self.cookie_name() and self._matches(urllib.parse.unquote(value)):
                return True
        return False

    def missing_token_message(self):
        return (
            "this viewer needs the token of its launch: open the address that "
            "knightgym view printed (http://.../?token=...)"
        )

    def _matches(self, given):
        return hmac.compare_digest(given.encode(), self.token.encode())


def _is_wildcard(host):
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return host == ""


def _bracketed(host):
    """An IPv6 address as a Host header writes it."""
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host.lower()
    except ValueError:
        return host.lower()
