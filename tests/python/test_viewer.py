"""knightgym view: its sessions and HTTP API, the `knightgym view` command, and the page in
a real browser (Debian's chromium, headless, driven by Selenium from Debian's
python3-selenium and chromium-driver): replaying records with the buttons, the arrow
keys and the move list, playing whole games of every game by clicking squares (3 and 4
players included), an agent's visit shares, and refusals shown in the page, with no error
in the browser's console. Screenshots of each game's board go to build/screenshots/."""

import json
import pathlib
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request

import knightgym
import pytest
from knightgym import records
from knightgym.viewer import Library, PlayedGame, ViewerError
from knightgym.viewer.server import make_server

BUILD = pathlib.Path(knightgym.__file__).resolve().parent.parent.parent
CLI = BUILD / "knightgym"
SCREENSHOTS = BUILD / "screenshots"

MOST_ACTIONS = 40  # about the longest game that the tests play out by clicking


def short(spec):
    """``spec`` cut to about MOST_ACTIONS actions at most, by the length cap that every game
    has (``max_turns``, scaled by the actions the spec may take at its own cap)."""
    game = knightgym.load_game(spec)
    turns = int(game.get_parameters()["max_turns"])
    return knightgym.make_spec(
        spec, max_turns=max(1, min(turns, turns * MOST_ACTIONS // game.max_game_length()))
    )


def other_player_counts():
    """For each number of players that no game has at its default rules, the first
    variant that one parameter's choices give it (Knights Challenge's 3 players), so that
    the page is played with every number of players the games offer."""
    seen = {knightgym.load_game(name).num_players() for name in knightgym.games()}
    variants = []
    for name in knightgym.games():
        for parameter in knightgym.describe_game(name)["parameters"]:
            for choice in parameter["choices"]:
                spec = knightgym.make_spec(name, **{parameter["name"]: choice})
                players = knightgym.load_game(spec).num_players()
                if players not in seen:
                    seen.add(players)
                    variants.append(spec)
    return variants


# Each game at its default rules, then the variants with other numbers of players, all
# short enough to play out by clicking; the person's seat goes round so that agents
# often move first and every seat number is taken.
RECORDED = [short(name) for name in knightgym.games()]
PLAYED = [
    (spec, index % knightgym.load_game(spec).num_players())
    for index, spec in enumerate(RECORDED + [short(spec) for spec in other_player_counts()])
]
RECORDED_GAMES = 2 * len(RECORDED)  # in the records file


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    """A records file with two games of each game, written by `knightgym play --record`."""
    folder = tmp_path_factory.mktemp("records")
    lines = []
    for spec in RECORDED:
        path = folder / "one.jsonl"
        subprocess.run(
            [
                str(CLI),
                "play",
                spec,
                "--agents",
                "mcts:sims=4,random",
                "--games",
                "2",
                "--record",
                str(path),
            ],
            check=True,
            capture_output=True,
        )
        lines += path.read_text().splitlines()
    path = folder / "games.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


TOKEN = "a-token-for-the-tests"


@pytest.fixture(scope="module")
def httpd(record_file):
    """The server, serving the records file's folder, with a known token."""
    library = Library(roots=[record_file.parent])
    library.open(record_file)
    server = make_server(library, token=TOKEN)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def server(httpd):
    return f"http://127.0.0.1:{httpd.server_address[1]}"


def call(url, body=None, token=TOKEN, headers=None):
    """(status, JSON) of a GET, or of a POST when there is a body, with the token."""
    data = (
        None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    )
    request = urllib.request.Request(
        url, data=data, method="GET" if data is None else "POST", headers=dict(headers or {})
    )
    if data is not None and "Content-Type" not in request.headers:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"token {token}")
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


# ---- Sessions and the API, without a browser ----


def test_a_game_against_agents_in_four_seats_plays_to_the_end():
    game = PlayedGame("knights_challenge(max_turns=40)", "random", [2], seed=1)
    view = game.view()
    assert view["to_move"] == 2 and view["legal"] and view["human_seats"] == [2]
    assert len(view["moves"]) == 2  # red and blue moved before the person's yellow
    while not view["over"]:
        assert view["to_move"] == 2
        view = game.move(view["legal"][0]["text"])
    assert view["returns"] and len(view["returns"]) == 4
    replayed = records.parse_line(view["record"])
    assert replayed.agents == ["random", "random", "human", "random"]
    assert replayed.moves == view["moves"]


def test_an_agent_move_shows_its_visit_shares_and_value():
    game = PlayedGame("tailten", "mcts:sims=200", [1], seed=0)
    report = game.view()["report"]
    assert report["sims"] == 200 and -1 <= report["value"] <= 1
    assert sum(report["moves"].values()) == pytest.approx(1, abs=1e-3)
    assert report["squares"] == {move: share for move, share in report["moves"].items()}
    assert "search value for the mover" in game.view()["svg"]
    assert 'class="share"' in game.view()["svg"]
    # An agent that does not search says only what it played.
    plain = PlayedGame("tailten", "random", [1], seed=0).view()
    assert plain["report"] == {"move": plain["moves"][0], "seat": 0, "sims": 0}
    assert "search value" not in plain["svg"]


def test_refused_moves_and_games_change_nothing():
    game = PlayedGame("knightmate", "random", [0])
    before = game.view()
    for move, message in [("e2e5", "not a legal move"), ("zz", "knightmate")]:
        with pytest.raises(ViewerError, match=message):
            game.move(move)
    assert game.view() == before
    # Knight Fight names any square; the mask refuses one off White's first rank.
    fight = PlayedGame("knight_fight", "random", [0])
    with pytest.raises(ViewerError, match="move 'a5' is not legal here"):
        fight.move("a5")
    assert fight.view()["moves"] == []
    with pytest.raises(ViewerError, match="no agent is to move"):
        game.step()
    with pytest.raises(ViewerError, match="unknown game 'knightmat'"):
        PlayedGame("knightmat", "random", [0])
    with pytest.raises(ViewerError, match="unknown parameter 'simz'"):
        PlayedGame("tailten", "mcts:simz=3", [0])
    with pytest.raises(ViewerError, match=r"seats must be in 0..1"):
        PlayedGame("tailten", "random", [2])


def test_the_library_opens_files_and_balance_runs(tmp_path, record_file):
    library = Library()
    assert library.open(record_file) == RECORDED_GAMES
    run = tmp_path / "run"
    subprocess.run(
        [
            str(CLI),
            "balance",
            "tailten(max_turns=12)",
            "--agents",
            "random",
            "--games",
            "4",
            "--record",
            "2",
            "--out",
            str(run),
            "--no-plots",
        ],
        check=True,
        capture_output=True,
    )
    assert library.open(run) == 2
    first, count = RECORDED_GAMES, RECORDED_GAMES + 2  # the run's games follow the file's
    summary = library.summary()
    assert len(summary) == count and summary[first]["spec"].startswith("tailten(")
    view = library.replay(first, 0)
    assert view["ply"] == 0 and not view["last_move"]
    end = library.replay(first, len(view["moves"]))
    assert end["over"] and end["returns"] == end["record_returns"]
    with pytest.raises(ViewerError, match=f"no recorded game {count}"):
        library.replay(count, 0)
    with pytest.raises(ViewerError, match="ply 99 is outside"):
        library.replay(first, 99)
    with pytest.raises(ViewerError, match="no such file"):
        library.open(tmp_path / "missing.jsonl")
    with pytest.raises(ViewerError, match="holds no records.jsonl"):
        library.open(tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"spec": "tailten"}\n')
    with pytest.raises(ViewerError, match="bad.jsonl:1: missing"):
        library.open(bad)
    assert len(library.summary()) == count


def test_the_api_answers_bad_requests_with_their_reason(server):
    assert call(server + "/api/replay?index=0")[0] == 400
    status, body = call(server + "/api/replay?index=x&ply=0")
    assert status == 400 and body["error"] == "index must be a whole number, got 'x'"
    status, body = call(server + "/api/play", b"[1")
    assert status == 400 and "not JSON" in body["error"]
    status, body = call(server + "/api/play", {"spec": "tailten", "seats": "0"})
    assert status == 400 and "seats must be a list" in body["error"]
    status, body = call(server + "/api/play/77/move", {"move": "d4"})
    assert status == 404 and body["error"].startswith("no game 77")
    assert call(server + "/static/../server.py")[0] == 404
    assert call(server + "/api/nothing")[0] == 404
    status, game = call(server + "/api/play", {"spec": "tailten", "agent": "random", "seats": [0]})
    assert status == 200
    status, body = call(f"{server}/api/play/{game['id']}/move", {"move": "a1"})
    assert status == 400 and "a1" in body["error"]
    assert call(f"{server}/api/play/{game['id']}")[1]["moves"] == []


def test_a_fault_of_the_viewer_is_answered_not_dropped():
    class Broken(Library):
        def summary(self):
            raise RuntimeError("a bug")

    httpd = make_server(Broken(), token=TOKEN)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        status, body = call(f"http://127.0.0.1:{httpd.server_address[1]}/api/library")
        assert status == 500 and body["error"] == "the viewer failed: RuntimeError('a bug')"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_command_serves_on_the_port_it_prints(record_file):
    child = subprocess.Popen(
        [str(CLI), "view", str(record_file), "--port", "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        line = child.stdout.readline()
        assert line.startswith("knightgym view: serving on http://127.0.0.1:")
        url, _, token = line.split()[-1].partition("/?token=")
        assert len(token) >= 32
        assert call(url + "/api/library", token=None)[0] == 403
        status, body = call(url + "/api/library", token=token)
        assert status == 200 and len(body["games"]) == RECORDED_GAMES
    finally:
        child.terminate()
        child.wait(timeout=10)
    done = subprocess.run([str(CLI), "view", "/nonexistent.jsonl"], capture_output=True, text=True)
    assert done.returncode != 0 and "/nonexistent.jsonl: no such file" in done.stderr


def test_the_command_line_names_folders_models_engines_and_caps(record_file, tmp_path):
    child = subprocess.Popen(
        [
            str(CLI),
            "view",
            "--folder",
            str(record_file.parent),
            "--model",
            f"mine={tmp_path / 'net.pt'}",
            "--engine",
            "fsf=/usr/games/x",
            "--max-sims",
            "10",
            "--move-seconds",
            "0.5",
            "--port",
            "0",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url, _, token = child.stdout.readline().split()[-1].partition("/?token=")
        status, agents = call(url + "/api/agents", token=token)
        assert status == 200 and agents["max_sims"] == 10 and agents["move_seconds"] == 0.5
        assert "mine" in agents["models"] and "fsf" in agents["engines"]
        status, body = call(url + "/api/open", {"path": str(record_file)}, token=token)
        assert status == 200 and body["added"] == RECORDED_GAMES
        status, body = call(
            url + "/api/play", {"spec": "tailten", "agent": "mcts:sims=11"}, token=token
        )
        assert status == 400 and "--max-sims" in body["error"]
    finally:
        child.terminate()
        child.wait(timeout=10)
    done = subprocess.run([str(CLI), "view", "--model", "nameless"], capture_output=True, text=True)
    assert done.returncode != 0 and "expected NAME=PATH" in done.stderr


# ---- The page in a real browser ----


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    profile = tempfile.TemporaryDirectory()
    for flag in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1100",
        f"--user-data-dir={profile.name}",
    ]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    SCREENSHOTS.mkdir(exist_ok=True)
    yield driver
    driver.quit()
    profile.cleanup()


def console_errors(driver, allowed=()):
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    return [e for e in errors if not any(a in e for a in allowed)]


def wait(driver, condition, seconds=20):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition())


def by_css(driver, css):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, css)


def text_of(driver, element_id):
    return by_css(driver, "#" + element_id)[0].text


def test_the_page_replays_records_with_buttons_keys_and_the_move_list(browser, server, record_file):
    from selenium.webdriver.common.keys import Keys

    browser.get(f"{server}/?token={TOKEN}")
    wait(browser, lambda: len(by_css(browser, "#library tbody tr")) == RECORDED_GAMES)
    games = records.read(record_file)
    for index in range(0, RECORDED_GAMES, 2):  # the first game of each game
        game = games[index]
        by_css(browser, f'#library tbody tr[data-index="{index}"]')[0].click()
        wait(
            browser,
            lambda game=game: text_of(browser, "position") == f"move 0 of {len(game.moves)}",
        )
        assert len(by_css(browser, "#board svg g.square")) > 0
        by_css(browser, "#next")[0].click()
        wait(browser, lambda: text_of(browser, "position").startswith("move 1 "))
        body = by_css(browser, "body")[0]
        body.send_keys(Keys.ARROW_RIGHT)
        wait(browser, lambda: text_of(browser, "position").startswith("move 2 "))
        assert by_css(browser, "#moves li.current")[0].text == game.moves[1]
        body.send_keys(Keys.ARROW_LEFT)
        wait(browser, lambda: text_of(browser, "position").startswith("move 1 "))
        by_css(browser, "#moves li")[4].click()
        wait(browser, lambda: text_of(browser, "position").startswith("move 5 "))
        body.send_keys(Keys.END)
        wait(
            browser,
            lambda game=game: text_of(browser, "position").startswith(f"move {len(game.moves)} "),
        )
        assert text_of(browser, "result").startswith("Returns: ")
        name = knightgym.load_game(game.spec).name
        browser.save_screenshot(str(SCREENSHOTS / f"replay_{name}.png"))
        body.send_keys(Keys.HOME)
        wait(browser, lambda: text_of(browser, "position").startswith("move 0 "))
    assert console_errors(browser) == []


def show_tab(driver, tab, field):
    """Clicks TAB and waits for its FIELD to show: a tab draws its form on the next frame,
    which a loaded machine may not have drawn when the next click comes."""
    by_css(driver, tab)[0].click()
    wait(driver, lambda: by_css(driver, field)[0].is_displayed())


def start_game(driver, spec, agent, seat):
    """Fills the play form (the game, then its spec, the agent and the person's seat) and
    starts the game."""
    from selenium.webdriver.support.ui import Select

    wait(driver, lambda: len(by_css(driver, "#play-game option")) == len(knightgym.games()))
    show_tab(driver, "#tab-play", "#play-game")
    Select(by_css(driver, "#play-game")[0]).select_by_value(knightgym.load_game(spec).name)
    for box, text in [("#play-spec", spec), ("#play-agent", agent)]:
        by_css(driver, box)[0].clear()
        by_css(driver, box)[0].send_keys(text)
    # Leaving the spec box asks for its seats (a 3-player spec has three).
    players = knightgym.load_game(spec).num_players()
    wait(driver, lambda: len(by_css(driver, "#play-seat option")) == players + 1)
    Select(by_css(driver, "#play-seat")[0]).select_by_value(str(seat))
    by_css(driver, "#play-button")[0].click()
    wait(driver, lambda: text_of(driver, "status") != "")


def play_by_clicking(driver, spec, seat):
    """Plays a game of `spec` in `seat` against random to the end by clicking the
    highlighted squares, or a legal move's button where none is highlighted (pass, a
    promotion). Returns the number of moves made."""
    start_game(driver, spec, "random", seat)
    made = 0
    while text_of(driver, "status") != "The game is over.":
        assert "(you)" in text_of(driver, "status")
        before = len(by_css(driver, "#moves li"))
        highlighted = by_css(driver, "#board g.square.hl")
        if not highlighted:
            by_css(driver, "#legal button")[0].click()
        else:
            square = highlighted[0].get_attribute("data-square")
            highlighted[0].click()
            if by_css(driver, f'#board g.square.sel[data-square="{square}"]'):
                continue  # the first square of a move that takes two
        wait(driver, lambda before=before: len(by_css(driver, "#moves li")) > before)
        made += 1
    return made


@pytest.mark.parametrize("spec,seat", PLAYED)
def test_a_whole_game_against_random_is_played_by_clicking(browser, server, spec, seat):
    browser.get(f"{server}/?token={TOKEN}")
    made = play_by_clicking(browser, spec, seat)
    assert made > 0
    assert text_of(browser, "result").startswith("Returns: ")
    assert by_css(browser, "#download")[0].get_attribute("href").startswith("data:application/json")
    game = knightgym.load_game(spec)
    name = game.name if spec in RECORDED else f"{game.name}_{game.num_players()}_players"
    browser.save_screenshot(str(SCREENSHOTS / f"play_{name}.png"))
    assert console_errors(browser) == []


def test_the_page_shows_visit_shares_and_refusals(browser, server):
    browser.get(f"{server}/?token={TOKEN}")
    start_game(browser, "tailten", "mcts:sims=100", 1)
    wait(browser, lambda: by_css(browser, "#report table"))
    assert len(by_css(browser, "#report tr")) >= 3
    assert by_css(browser, "#board svg text.share")
    browser.save_screenshot(str(SCREENSHOTS / "play_tailten_visit_shares.png"))
    moves = len(by_css(browser, "#moves li"))
    # A refused game names the problem and leaves the game on the board as it was.
    spec = by_css(browser, "#play-spec")[0]
    spec.clear()
    spec.send_keys("tailten(ringforts=99)")
    by_css(browser, "#play-button")[0].click()
    wait(browser, lambda: "ringforts" in text_of(browser, "message"))
    assert "error" in by_css(browser, "#message")[0].get_attribute("class")
    assert len(by_css(browser, "#moves li")) == moves
    show_tab(browser, "#tab-replay", "#open-path")
    path = by_css(browser, "#open-path")[0]
    path.send_keys("/nonexistent/games.jsonl")
    by_css(browser, "#open-button")[0].click()
    wait(browser, lambda: "the viewer opens only the files" in text_of(browser, "message"))
    # The refusals' statuses are all the console holds.
    assert console_errors(browser, allowed=["status of 400", "status of 403"]) == []
