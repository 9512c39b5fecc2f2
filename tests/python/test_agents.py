"""knightgym.agents from Python: every kind plays legal actions in every game, seeds
repeat, act_batch equals act() in turn, search limits and bad input. The searches
themselves are tested in C++ (tests/cpp/agents/search_test.cc, tests/cpp/agents/agents_test.cc)."""

import pathlib
import threading
import time

import knightgym
import numpy as np
import pytest
from knightgym import agents

GAMES = knightgym.games()  # every registered game's name
ROOT = pathlib.Path(__file__).resolve().parents[2]
# Small searches: these tests check the bindings, not the strength of play.
NO_NETWORK = ["random", "greedy", "mcts:sims=8", "az:sims=8,search=gumbel", "az:sims=8,search=puct"]
SPECS = NO_NETWORK + [
    pytest.param("az:sims=8,model=resnet,blocks=1,channels=8", marks=pytest.mark.needs_networks)
]
# Knightmate positions from random games that Fairy-Stockfish scored "mate 1" (those of
# tests/cpp/agents/search_test.cc).
MATES_IN_1 = [
    "m7/r2Bpmbp/1R1r4/p1p3k1/5Kp1/1PP2PPP/1M3R2/8 w - - 5 46",
    "m5B1/6km/8/1pp3P1/p1p4P/1r1P4/2q2RK1/3bb3 b - - 0 68",
    "2Rrk3/1m2p3/q2r4/1p1b2m1/1K2pQ1b/8/1P5P/5R2 b - - 2 53",
]


def positions(game, count, seed=0):
    """`count` unfinished states of `game`: its start, then a random game's positions."""
    player = agents.make("random", game, seed=seed)
    state = game.new_initial_state(seed=seed)
    out = []
    while len(out) < count:
        if state.is_terminal():
            state = game.new_initial_state(seed=seed + len(out))
        out.append(state.clone())
        state.apply_action(player.act(state))
    return out


def play(agent, game, decisions, seed=0):
    """The actions `agent` chooses over `decisions` turns of a game it plays alone."""
    state = game.new_initial_state(seed=seed)
    actions = []
    while len(actions) < decisions and not state.is_terminal():
        action = agent.act(state)
        assert action in state.legal_actions()
        actions.append(action)
        state.apply_action(action)
    return actions


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return knightgym.load_game(request.param)


@pytest.mark.parametrize("spec", SPECS)
def test_every_kind_plays_legal_actions_in_every_game(game, spec):
    agent = agents.make(spec, game, seed=1)
    assert agent.kind == spec.split(":")[0]
    assert len(play(agent, game, decisions=6)) == 6


@pytest.mark.parametrize("spec", SPECS)
def test_the_same_seed_plays_the_same_actions(game, spec):
    first = play(agents.make(spec, game, seed=7), game, decisions=10)
    assert play(agents.make(spec, game, seed=7), game, decisions=10) == first


def test_different_seeds_can_play_differently(game):
    states = positions(game, 12)

    def picks(seed):
        agent = agents.make("random", game, seed=seed)
        return [agent.act(s) for s in states]

    assert picks(0) != picks(1)


@pytest.mark.parametrize("spec", SPECS)
def test_act_batch_equals_act_on_each_in_turn(game, spec):
    states = positions(game, 6, seed=2)
    batched = agents.make(spec, game, seed=5).act_batch(states)
    assert batched.dtype == np.int32 and batched.shape == (len(states),)
    single = agents.make(spec, game, seed=5)
    assert batched.tolist() == [single.act(s) for s in states]


def test_act_batch_of_no_states_is_empty():
    game = knightgym.load_game("tailten")
    assert agents.make("az:sims=4", game).act_batch([]).shape == (0,)


def test_a_game_spec_string_is_loaded():
    agent = agents.make("mcts:sims=4", "knight_fight(layout=identity)", seed=3)
    state = knightgym.load_game("knight_fight(layout=identity)").new_initial_state()
    assert agent.act(state) in state.legal_actions()
    with pytest.raises(ValueError, match="layout=random"):
        agent.act(knightgym.load_game("knight_fight").new_initial_state())


def test_spec_is_canonical_and_repr_names_agent_and_game():
    agent = agents.make("mcts:sims=4", "tailten", seed=9)
    assert agent.spec == "mcts:sims=4,c=1.4,rollouts=1,solve=true"
    assert agents.make(agent.spec, "tailten").spec == agent.spec
    assert agents.make("mcts(sims=4)", "tailten").spec == agent.spec
    assert agent.spec in repr(agent) and "tailten(" in repr(agent) and "seed 9" in repr(agent)
    assert agents.make("random", "tailten").spec == "random"


def test_sims_replaces_the_spec_for_one_decision(game):
    state = game.new_initial_state()
    for spec in ["mcts:sims=20,solve=false", "az:sims=20", "az:sims=20,search=puct"]:
        agent = agents.make(spec, game)
        agent.act(state)
        assert agent.last_report["sims"] == 20
        agent.act(state, sims=5)
        assert agent.last_report["sims"] == 5
        assert -1 <= agent.last_report["value"] <= 1 and agent.last_report["depth"] >= 1


def test_the_budgets_old_name_still_works_and_warns(game):
    """One name for the simulation budget, sims: act(simulations=N), its old name, still
    does the same for a release, with a DeprecationWarning; both at once are refused."""
    state = game.new_initial_state()
    agent = agents.make("mcts:sims=20", game)
    with pytest.warns(DeprecationWarning, match=r"act\(sims=N\)"):
        agent.act(state, simulations=5)
    assert agent.last_report["sims"] == 5 and agent.last_report["simulations"] == 5
    with pytest.raises(ValueError, match="not also its old name"):
        agent.act(state, sims=4, simulations=5)


def test_searches_report_the_visit_shares_of_the_root_actions(game):
    state = game.new_initial_state()
    for spec in ["mcts:sims=60,solve=false", "az:sims=60", "az:sims=60,search=puct"]:
        agent = agents.make(spec, game, seed=2)
        action = agent.act(state)
        shares = agent.last_report["visit_shares"]
        assert sorted(shares) == sorted(state.legal_actions()), spec
        assert sum(shares.values()) == pytest.approx(1.0, abs=1e-5)
        assert all(0 <= share <= 1 for share in shares.values())
        if spec.startswith("mcts"):
            assert shares[action] == max(shares.values())  # it plays its most visited


def test_a_time_limit_stops_a_long_search():
    game = knightgym.load_game("knight_fight")
    agent = agents.make("mcts:sims=100000000", game)
    agent.act(game.new_initial_state(), time_limit=0.05)
    assert 0 < agent.last_report["simulations"] < 100000000


@pytest.mark.parametrize(
    "spec, game_spec",
    [
        ("mcts:sims=100000000", "knight_fight"),
        ("az:sims=1000000,search=puct,rollouts=8", "knight_fight"),
        ("az:sims=1000000,search=gumbel,rollouts=8", "tailten"),
        ("uci:nodes=2000000000", "knightmate"),
    ],
)
def test_stop_from_another_thread_ends_the_search_with_a_legal_action(spec, game_spec):
    """No time limit: only stop() can end these searches within the test's time."""
    game = knightgym.load_game(game_spec)
    agent = agents.make(spec, game)
    state = game.new_initial_state(seed=1)
    chosen = []
    thread = threading.Thread(target=lambda: chosen.append(agent.act(state)), daemon=True)
    thread.start()
    time.sleep(0.2)
    # A stop() before the search begins is lost (below), so it is sent until the search
    # ends. Unstopped, each search takes many minutes: the bound leaves room for a busy
    # machine.
    deadline = time.monotonic() + 30
    while thread.is_alive() and time.monotonic() < deadline:
        agent.stop()
        thread.join(timeout=0.1)
    assert not thread.is_alive(), "stop() did not end the search"
    assert chosen and chosen[0] in state.legal_actions()
    if not spec.startswith("uci"):
        assert 0 < agent.last_report["simulations"] < (10**8 if "mcts" in spec else 10**6)
    agent.stop()  # with no search running: lost, and the next search runs whole
    if spec.startswith("uci"):  # the engine's budget is the spec's: only a time limit ends it
        started = time.monotonic()
        assert agent.act(state, time_limit=0.3) in state.legal_actions()
        assert 0.3 <= time.monotonic() - started < 30
    else:
        assert agent.act(state, sims=4) in state.legal_actions()
        assert agent.last_report["sims"] == 4


def test_agents_that_do_not_search_report_zeros():
    agent = agents.make("greedy", "tailten")
    agent.act(knightgym.load_game("tailten").new_initial_state())
    assert agent.last_report == {
        "sims": 0,
        "simulations": 0,
        "value": 0.0,
        "depth": 0,
        "visit_shares": {},
    }


@pytest.mark.needs_networks
def test_agents_of_one_factory_share_its_network_and_play_like_make():
    game = knightgym.load_game("knights_challenge")
    spec = "az:sims=8,model=resnet,blocks=1,channels=8,net_seed=4"
    factory = agents.Factory(spec, game)
    assert factory.kind == "az" and factory.spec == agents.make(spec, game).spec
    states = positions(game, 3)
    expected = agents.make(spec, game, seed=2).act_batch(states).tolist()
    assert factory.make(seed=2).act_batch(states).tolist() == expected
    assert factory.make(seed=2).act_batch(states).tolist() == expected


# Gumbel searches only its sampled top-k: with the flat priors of model=uniform, it must
# consider every move to see the mate.
@pytest.mark.parametrize(
    "spec", ["mcts:sims=400", "az:sims=200,considered=256", "az:sims=200,search=puct"]
)
@pytest.mark.parametrize("fen", MATES_IN_1)
def test_searches_mate_in_1_in_knightmate(spec, fen):
    game = knightgym.load_game(f"knightmate(fen={fen})")
    state = game.new_initial_state()
    mover = state.current_player()
    state.apply_action(agents.make(spec, game, seed=1).act(state))
    assert state.is_terminal() and state.returns()[mover] == 1


def test_kinds_and_params_list_every_parameter():
    kinds = agents.kinds()
    assert list(kinds) == ["random", "greedy", "mcts", "az", "uci"]
    assert all(summary for summary in kinds.values())
    assert agents.params("random") == []
    with pytest.raises(ValueError, match="unknown agent 'alphabeta'.*mcts"):
        agents.params("alphabeta")
    mcts = {p["name"]: p for p in agents.params("mcts")}
    assert list(mcts) == ["sims", "c", "rollouts", "solve"]
    assert mcts["sims"]["type"] == "int" and mcts["sims"]["default"] == "1000"
    assert all(p["doc"] for p in mcts.values())
    search = next(p for p in agents.params("az") if p["name"] == "search")
    assert search["choices"] == ["gumbel", "puct"]


@pytest.mark.parametrize(
    "spec, message",
    [
        ("minimax", "unknown agent 'minimax'"),
        ("mcts:simulations=5", "simulations"),
        ("mcts:sims=zero", "sims"),
        ("mcts:sims=0", "sims"),
        ("az:search=best", "best"),
        pytest.param(
            "az:model=/no/such/model.pt", "/no/such/model.pt", marks=pytest.mark.needs_networks
        ),
    ],
)
def test_bad_specs_raise_value_error_naming_the_problem(spec, message):
    with pytest.raises(ValueError, match=message):
        agents.make(spec, "tailten")
    with pytest.raises(ValueError, match=message):
        agents.Factory(spec, "tailten")


def test_uci_plays_knightmate_through_fairy_stockfish_and_refuses_other_games():
    game = knightgym.load_game("knightmate(max_turns=40)")
    engine = agents.make("uci:nodes=20", game)
    assert engine.kind == "uci"
    assert engine.spec == (
        "uci:engine=fairy-stockfish,nodes=20,movetime=0,depth=0,hash=16,timeout=30,multipv=1,"
        "spread=100,tie=0"
    )
    first = play(engine, game, decisions=8)
    assert len(first) == 8
    assert play(agents.make("uci:nodes=20", game), game, decisions=8) == first
    with pytest.raises(ValueError, match="knight_fight has no UCI variant"):
        agents.make("uci:nodes=20", "knight_fight")
    with pytest.raises(RuntimeError, match="cannot start UCI engine '/no/such/engine'"):
        agents.make("uci:engine=/no/such/engine", game)
    with pytest.raises(ValueError, match="no budget per move"):
        agents.make("uci:nodes=0", game)


def test_bad_games_and_kinds_raise():
    with pytest.raises(ValueError, match="chess"):
        agents.make("random", "chess")
    with pytest.raises(ValueError, match="unknown agent 'minimax'"):
        agents.params("minimax")
    with pytest.raises(TypeError):
        agents.make("random", None)
    with pytest.raises(TypeError):
        agents.make("random", 3)
    with pytest.raises(ValueError, match="seed must be at least 0, got -1"):
        agents.make("random", "tailten", seed=-1)


def test_a_state_of_another_game_raises_value_error():
    agent = agents.make("mcts:sims=4", "tailten")
    other = knightgym.load_game("knightmate").new_initial_state()
    with pytest.raises(ValueError, match="knightmate"):
        agent.act(other)
    with pytest.raises(ValueError, match="knightmate"):
        agent.act_batch([knightgym.load_game("tailten").new_initial_state(), other])


def test_a_finished_state_raises_value_error():
    game = knightgym.load_game("tailten")
    state = positions(game, 1)[0]
    player = agents.make("random", game)
    while not state.is_terminal():
        state.apply_action(player.act(state))
    for spec in NO_NETWORK:  # the check comes before the agent, the same for every kind
        with pytest.raises(ValueError, match="over"):
            agents.make(spec, game).act(state)
        with pytest.raises(ValueError, match="over"):
            agents.make(spec, game).act_batch([state])


def test_wrong_types_and_limits_raise():
    game = knightgym.load_game("tailten")
    agent = agents.make("mcts:sims=4", game)
    state = game.new_initial_state()
    with pytest.raises(TypeError):
        agent.act(None)
    with pytest.raises(TypeError):
        agent.act(game)
    with pytest.raises(TypeError, match=r"states\[1\] is None"):
        agent.act_batch([state, None])
    with pytest.raises(TypeError):
        agent.act_batch(state)
    with pytest.raises(ValueError, match="sims must be at least 1, got 0"):
        agent.act(state, sims=0)
    for seconds in (0, -1, float("nan")):
        with pytest.raises(ValueError, match="time_limit"):
            agent.act(state, time_limit=seconds)


def test_the_submodule_is_importable_both_ways():
    import knightgym.agents as imported
    from knightgym.agents import make

    assert imported is agents and make is agents.make
    assert agents.__name__ == "knightgym.agents"


# ------------------------------------------------------------------ shipped networks

SHIPPED = [model["name"] for model in agents.pretrained()]


def test_the_manifest_lists_a_network_for_every_game_with_recipes_at_its_default_rules():
    shipped = {model["name"]: model for model in agents.pretrained()}
    assert len(shipped) == len(SHIPPED)  # names are unique
    for name, model in shipped.items():
        assert knightgym.load_game(model["game"]).spec == model["game"], name
        for key in ("file", "path", "settings", "minutes", "steps", "games", "strength"):
            assert model[key], (name, key)
    # Every registered game whose folder holds the recipes of shipped networks, at its
    # default rules (a network is optional: a new game has none until one is trained).
    covered = {model["game"] for model in shipped.values()}
    with_recipes = [
        game for game in knightgym.games() if (ROOT / "env" / "games" / game / "recipes").is_dir()
    ]
    assert with_recipes
    for game in with_recipes:
        assert knightgym.load_game(game).spec in covered, game


@pytest.mark.needs_networks
@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_network_plays_its_game_without_a_path(name):
    model = next(m for m in agents.pretrained() if m["name"] == name)
    game = knightgym.load_game(model["game"])
    agent = agents.make("az:model=pretrained,sims=4", game, seed=0)
    by_path = agents.make(f"az:model={model['path']},sims=4", game, seed=0)
    for state in positions(game, 3):
        action = agent.act(state)
        assert action in state.legal_actions()
        assert action == by_path.act(state)


def test_a_variant_without_a_shipped_network_is_refused_with_the_list():
    with pytest.raises(
        ValueError,
        match=r"no shipped network for "
        r"tailten\(first_player=1,.*tailten\(first_player=0,",
    ):
        agents.make("az:model=pretrained", "tailten(first_player=1)")


def test_the_models_directory_can_be_chosen(tmp_path):
    (tmp_path / "manifest.json").write_text(
        '{"networks": {"mine": {"file": "mine.pt", "game": "tailten", "minutes": 1.5}}}'
    )
    agents.set_models_directory(str(tmp_path))
    try:
        assert [m["name"] for m in agents.pretrained()] == ["mine"]
        assert agents.pretrained()[0]["path"] == f"{tmp_path}/mine.pt"
        assert agents.pretrained()[0]["minutes"] == "1.5"
    finally:
        agents.set_models_directory("")
    assert len(agents.pretrained()) == len(SHIPPED)
