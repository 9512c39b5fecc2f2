"""Bad input raises ValueError or TypeError naming the problem, and changes nothing."""

import re

import knightgym
import knightgym.agents
import knightgym.balance
import knightgym.ladder
import numpy as np
import pytest
from bad_seeds import BAD_SEEDS, assert_refused_as_make_refuses
from knightgym._checks import shortened

NUM_ENVS = 4


class SteppedEnv:
    """A vector env a few steps into its episodes, with views of its buffers."""

    def __init__(self):
        self.env = knightgym.make("knight_fight", num_envs=NUM_ENVS, num_threads=2, seed=3)
        self.env.reset()
        for _ in range(3):
            obs, rewards, terminated, truncated, info = self.env.step(self.env.sample_actions())
        self.buffers = [
            obs["observation"],
            obs["action_mask"],
            rewards,
            terminated,
            truncated,
            info["current_player"],
        ]

    def snapshot(self):
        states = [self.env.state(i).serialize() for i in range(NUM_ENVS)]
        return states, [buffer.copy() for buffer in self.buffers]

    def sampled_actions(self):
        return self.env.sample_actions()

    def illegal_action(self, i):
        return int(np.flatnonzero(~self.buffers[1][i])[0])


@pytest.fixture
def stepped():
    return SteppedEnv()


def assert_unchanged(stepped, before):
    states, buffers = stepped.snapshot()
    assert states == before[0]
    for after, expected in zip(buffers, before[1]):
        assert np.array_equal(after, expected)


@pytest.mark.parametrize("actions", [[1.0, 2.0, 3.0, 4.0], np.zeros(NUM_ENVS, np.float32)])
def test_float_actions_raise_type_error_naming_the_dtype(stepped, actions):
    before = stepped.snapshot()
    with pytest.raises(TypeError, match="dtype float"):
        stepped.env.step(actions)
    assert_unchanged(stepped, before)


@pytest.mark.parametrize("shape", [(NUM_ENVS + 1,), (NUM_ENVS - 1,), (1, NUM_ENVS), ()])
def test_actions_of_a_wrong_shape_raise_value_error_naming_the_shapes(stepped, shape):
    before = stepped.snapshot()
    with pytest.raises(ValueError, match=re.escape(f"shape ({NUM_ENVS},)")) as error:
        stepped.env.step(np.zeros(shape, np.int32))
    assert str(shape).replace(" ", "") in str(error.value).replace(" ", "")
    assert_unchanged(stepped, before)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("bad_action", [-1, 101, 1000])
def test_out_of_range_actions_raise_value_error_naming_env_and_action(stepped, dtype, bad_action):
    actions = stepped.sampled_actions().astype(dtype)
    actions[2] = bad_action
    before = stepped.snapshot()
    with pytest.raises(ValueError, match=rf"env 2: action {bad_action} is out of range \[0, 101\)"):
        stepped.env.step(actions)
    assert_unchanged(stepped, before)


@pytest.mark.parametrize("wide", [2**70, -(2**70), 2**63, 2**64 - 1, 10**100], ids=repr)
@pytest.mark.parametrize("form", ["list", "objects"])
def test_integers_too_wide_for_64_bits_are_out_of_range_not_a_dtype(stepped, wide, form):
    """numpy holds such a list as objects (or, with 2**63, floats): still integers, so a
    ValueError naming the env and the value (shortened), not a TypeError of its dtype."""
    actions = stepped.sampled_actions().tolist()
    actions[2] = wide
    if form == "objects":
        actions = np.array(actions, dtype=object)
    before = stepped.snapshot()
    message = rf"^env 2: action {re.escape(shortened(wide))} is out of range \[0, 101\)$"
    with pytest.raises(ValueError, match=message):
        stepped.env.step(actions)
    with pytest.raises(ValueError, match=message.replace("env 2", "env 0")):
        stepped.env.step([wide] * NUM_ENVS)
    assert_unchanged(stepped, before)


def test_integers_held_as_objects_are_actions_like_any_others(stepped):
    actions = stepped.sampled_actions()
    twin = SteppedEnv()
    twin.env.step(twin.sampled_actions())
    stepped.env.step(np.array(actions.tolist(), dtype=object))
    assert stepped.snapshot()[0] == twin.snapshot()[0]


@pytest.mark.parametrize("other", [1.5, True, "3", None])
def test_a_wide_integer_beside_a_non_integer_is_still_a_type_error(stepped, other):
    before = stepped.snapshot()
    with pytest.raises(TypeError, match="actions must be"):
        stepped.env.step([other, 2**70] + [0] * (NUM_ENVS - 2))
    assert_unchanged(stepped, before)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_illegal_actions_raise_value_error_naming_env_and_action(stepped, dtype):
    actions = stepped.sampled_actions().astype(dtype)
    illegal = stepped.illegal_action(1)
    actions[1] = illegal
    before = stepped.snapshot()
    with pytest.raises(ValueError, match=rf"env 1: action {illegal} \(\w+\) is not legal"):
        stepped.env.step(actions)
    assert_unchanged(stepped, before)


def test_the_env_steps_on_normally_after_an_error(stepped):
    twin = SteppedEnv()
    actions = stepped.sampled_actions()
    twin_actions = twin.sampled_actions()
    bad = actions.copy()
    bad[3] = stepped.illegal_action(3)
    with pytest.raises(ValueError):
        stepped.env.step(bad)
    stepped.env.step(actions)
    twin.env.step(twin_actions)
    assert stepped.snapshot()[0] == twin.snapshot()[0]


def test_state_index_out_of_range_raises(stepped):
    with pytest.raises(ValueError, match=rf"env index {NUM_ENVS} is out of range"):
        stepped.env.state(NUM_ENVS)


@pytest.mark.parametrize("keyword", ["num_envs", "num_threads"])
@pytest.mark.parametrize("value", [0, -1])
def test_make_rejects_no_envs_or_no_threads(keyword, value):
    with pytest.raises(ValueError, match=rf"{keyword} must be at least 1, got {value}"):
        knightgym.make("knight_fight", **{keyword: value})


@pytest.mark.parametrize(
    "keywords, error, message",
    [
        ({"seed": -1}, ValueError, "seed must be at least 0, got -1"),
        ({"seed": 2**64}, ValueError, "seed must be at most 18446744073709551615"),
        ({"num_envs": 2**31}, ValueError, "num_envs must be at most 16777216, got 2147483648"),
        ({"num_envs": True}, TypeError, "num_envs must be an integer, got bool True"),
        ({"num_threads": 2.0}, TypeError, "num_threads must be an integer, got float 2.0"),
        ({"seed": "7"}, TypeError, "seed must be an integer, got str '7'"),
    ],
)
def test_make_names_an_argument_out_of_its_range_or_type(keywords, error, message):
    with pytest.raises(error, match=re.escape(message)):
        knightgym.make("knight_fight", opponent=None, **keywords)
    with pytest.raises(error, match=re.escape(message)):
        knightgym.make("knight_fight", opponent="random", **keywords)


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: knightgym.VectorEnv("knight_fight", num_envs=0), ValueError, "num_envs"),
        (lambda: knightgym.VectorEnv("knight_fight", num_threads=1.0), TypeError, "num_threads"),
        (lambda: knightgym.OpponentEnv("tailten", num_envs=2**25), ValueError, "num_envs"),
        (lambda: knightgym.OpponentEnv("tailten", seat=1.5), TypeError, "seat"),
        (lambda: knightgym.OpponentEnv("tailten", seat=-1), ValueError, "seat"),
    ],
)
def test_the_env_constructors_name_an_argument_out_of_its_range_or_type(make, error, message):
    with pytest.raises(error, match=f"^{message} must be"):
        make()


def test_make_takes_every_seed_of_64_bits():
    assert knightgym.make("knight_fight", seed=2**64 - 1).seed == 2**64 - 1


@pytest.fixture
def state():
    state = knightgym.load_game("knight_fight(layout=identity)").new_initial_state()
    state.apply_action(2)  # White on c1
    return state


def test_illegal_single_state_action_raises_and_changes_nothing(state):
    before = state.serialize()
    with pytest.raises(ValueError, match=r"action 50 \(a5\) is not legal"):
        state.apply_action(50)  # Black's row 5 (a5); Black must place on rank 10
    assert state.serialize() == before


@pytest.mark.parametrize("action", [-1, 101])
def test_out_of_range_single_state_action_raises_and_changes_nothing(state, action):
    before = state.serialize()
    with pytest.raises(ValueError, match=rf"action {action} is out of range \[0, 101\)"):
        state.apply_action(action)
    assert state.serialize() == before


def test_applying_to_a_finished_game_raises_and_changes_nothing():
    state = knightgym.load_game("knight_fight(layout=identity,max_turns=2)").new_initial_state()
    state.apply_action(2)  # White on c1
    state.apply_action(0)  # Black on a10 (row 0 of Black's view): the second and last turn
    assert state.is_terminal()
    before = state.serialize()
    with pytest.raises(ValueError, match="the game is over"):
        state.apply_action(14)
    assert state.serialize() == before


def test_observing_as_an_unknown_player_raises(state):
    with pytest.raises(ValueError, match=r"player 2 is out of range \[0, 2\)"):
        state.observation_tensor(2)


def test_action_to_string_of_an_out_of_range_action_raises(state):
    with pytest.raises(ValueError, match=r"action 101 is out of range"):
        state.action_to_string(101)


@pytest.mark.parametrize("text", ["k1", "a11", "A1", "", "passs"])
def test_string_to_action_of_a_non_action_raises_naming_it(state, text):
    with pytest.raises(ValueError, match=f"'{text}' is not an action"):
        state.string_to_action(text)


def test_unknown_game_raises_listing_the_known_games():
    with pytest.raises(ValueError, match="unknown game 'chess'; known games: .*knight_fight"):
        knightgym.load_game("chess")


def test_unknown_parameter_raises_listing_the_allowed_ones():
    with pytest.raises(
        ValueError,
        match="unknown parameter 'speed'; allowed: "
        "double_erase, mirror_on_moves, max_turns, layout",
    ):
        knightgym.load_game("knight_fight(speed=3)")


@pytest.mark.parametrize(
    "param, value, allowed",
    [
        ("double_erase", "maybe", "expected one of: optional, forced, off"),
        ("mirror_on_moves", "yes", "expected true or false"),
        ("max_turns", "0", r"expected an integer in \[1, 100000\]"),
        ("max_turns", "ten", "expected an integer"),
        ("layout", "12", "expected random, identity or 200 digits"),
    ],
)
def test_bad_parameter_value_raises_naming_it_and_the_allowed_values(param, value, allowed):
    pattern = f"parameter '{param}' = '{value}': {allowed}"
    with pytest.raises(ValueError, match=pattern):
        knightgym.load_game(f"knight_fight({param}={value})")
    with pytest.raises(ValueError, match=pattern):
        knightgym.make("knight_fight", **{param: value})


@pytest.mark.parametrize(
    "spec",
    [
        "knight_fight(",
        "knight_fight(max_turns)",
        "(max_turns=3)",
        "knight_fight(max_turns=3,max_turns=4)",
    ],
)
def test_malformed_spec_raises(spec):
    with pytest.raises(ValueError, match="bad spec"):
        knightgym.load_game(spec)


def corrupt(text, field, value):
    """`text` with `field`'s value replaced."""
    return re.sub(rf"\b{field}=\S*", f"{field}={value}", text)


@pytest.mark.parametrize(
    "make_text, why",
    [
        (lambda text: "", "expected one field 'layout'"),
        (lambda text: "garbage", "field 'garbage' has no '='"),
        (lambda text: text + " colour=red", "unknown field 'colour'"),
        (lambda text: text + " turns=3", "expected one field 'turns'"),
        (lambda text: corrupt(text, "layout", "0102"), "layout: expected random, identity or 200"),
        (lambda text: corrupt(text, "usable", "1" * 99), "usable must be 100 characters 0 or 1"),
        (lambda text: corrupt(text, "knights", "z9,-"), "knight 'z9' is not a square"),
        (lambda text: corrupt(text, "knights", "d5,-"), "a knight stands on usable square d5"),
        (lambda text: corrupt(text, "turns", "abc"), "turns 'abc' is not an integer"),
        (lambda text: corrupt(text, "to_move", "2"), r"to_move '2' is not an integer in \[0, 1\]"),
        (
            lambda text: corrupt(text, "end", "over"),
            "end 'over' is not running, rules or truncated",
        ),
        # Every game's text (the adapter's rule, found by the state fuzzer): a running game
        # whose player to move has no legal action.
        (
            lambda text: corrupt(text, "usable", "0" * 100),
            "the game is not over, but the player to move has no legal action",
        ),
    ],
)
def test_malformed_state_text_raises_naming_the_problem(state, make_text, why):
    game = state.game()
    with pytest.raises(ValueError, match=f"cannot read state: {why}"):
        game.deserialize_state(make_text(state.serialize()))


def test_knightgym_rllib_without_rllibs_dependencies_says_how_to_get_them():
    try:
        from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("RLlib is whole here (.venv-torch2)")
    with pytest.raises(ModuleNotFoundError, match=r'needs \w+: pip install "knightgym\[rllib\]"'):
        import knightgym.rllib  # noqa: F401


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_every_other_seed_taker_refuses_a_seed_as_make_does(seed, tmp_path):
    game = knightgym.load_game("tailten")
    factory = knightgym.agents.Factory("random", game)
    calls = [
        game.new_initial_state,
        factory.make,
        lambda s: knightgym.agents.make("random", game, seed=s),
        lambda s: knightgym.balance.run("tailten", agents="random", games=2, seed=s),
        lambda s: knightgym.ladder.run("tailten", agents=["random", "greedy"], games=2, seed=s),
        lambda s: knightgym.teacher.generate("tailten", str(tmp_path / "t"), "random", 2, seed=s),
    ]
    for call in calls:
        assert_refused_as_make_refuses(call, seed)
    assert not (tmp_path / "t").exists()
