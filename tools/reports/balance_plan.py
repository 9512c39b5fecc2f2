"""The plan of the balance report (docs/balance.md): every run and round robin it plays,
read from each game's balance studies (env/games/<game>/studies.json, through
tools/lib/studies.py; games in the registry's order), and the order they are played in.

A game's runs: its default rules across strength (random, MCTS at three strengths, the
shipped network, and the further strengths its studies add), its rule sweeps with weak
MCTS and again at strength and with its network, its skill-depth sweep and a recorded
example game. Its round robin (its "ladder") gives each strength its Elo (random = 0).

This module needs no Python package of knightgym: `run` plays the plan where only the
command line is built (the balance phase of tools/gpu/).
"""

import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))  # tools/lib: studies
import studies  # noqa: E402

WEAK, MEDIUM, STRONG = "mcts:sims=16", "mcts:sims=64", "mcts:sims=256"
NET64 = "az:model=pretrained,sims=64"
SKILL = "random,mcts:sims=100,mcts:sims=400"  # adjacent rungs of the ladders
# The span up to the network: it plays every rule set of its game, the closest network's
# where the rules differ from those it was made for.
NETWORK_ANY_RULES = "az:model=pretrained,sims=64,rules=any"
SKILL_TOP = f"random,mcts:sims=400,{NETWORK_ANY_RULES}"
SPRT = "a0=0,a1=0.05,alpha=0.05,beta=0.05"
# Which seat is favoured: stops early where a seat clearly is, plays on near even.
SPRT_TWO_SIDED = "a0=-0.05,a1=0.05,alpha=0.05,beta=0.05"
SPRTS = {"one_sided": SPRT, "two_sided": SPRT_TWO_SIDED}
# Every game at its default rules across strength: random, MCTS with random roll-outs at
# three strengths, the shipped network batched (a game's studies may add more, such as
# Knightmate's Fairy-Stockfish, and play fewer games where the game is slow).
LEVELS = ("random", "weak", "medium", "strong", "net64")
LEVEL_AGENTS = {
    "random": "random",
    "weak": WEAK,
    "medium": MEDIUM,
    "strong": STRONG,
    "net64": NET64,
}
LEVEL_GAMES = {"random": 2000, "weak": 2000, "medium": 2000, "strong": 2000, "net64": 4000}


@dataclass
class Run:
    game: str
    agents: str
    sweeps: tuple = ()
    sprt: str = None
    games: int = 2000
    batch: int = 0
    chunk: int = 0  # with a batch: games per chunk, `batch` of them in play (0: batch)
    opening_plies: int = 0
    record: int = 0  # games of each rule set whose moves are kept (records.jsonl)


def sweep_keys(sweeps):
    """The keys of --sweep KEY=V1,V2 strings."""
    return [sweep.split("=")[0] for sweep in sweeps]


class Plan:
    """Every run and ladder of the report, from the `balance` studies of each game
    (env/games/<game>/studies.json, in the registry's order): runs, {name: Run}; ladders,
    {name: (game spec, agents, games per pair)}, the round robins that give each strength
    its Elo (random = 0); sweeps, [(title, [runs, weakest first], swept keys)]; plots,
    [(run, plot of knightgym.balance.plot)]; skill, the skill-depth runs."""

    def __init__(self, settings):
        self.settings = settings
        self.games = list(settings)
        self.runs = {}
        self.sweeps, self.plots, self.skill = [], [], []
        for game, balance in settings.items():
            games = {**LEVEL_GAMES, **balance.get("games", {})}
            for level in LEVELS:
                self.runs[f"{game}_{level}"] = Run(
                    game,
                    LEVEL_AGENTS[level],
                    sprt=SPRT if level == "medium" else None,
                    games=games[level],
                    batch=20 if level == "net64" else 0,
                )
        # More strengths, such as a fixed-node engine, which plays one game from one start:
        # these start a few random plies in.
        for game, balance in settings.items():
            for strength in balance.get("strengths", []):
                self.runs[f"{game}_{strength['level']}"] = Run(
                    game, strength["agents"], opening_plies=strength.get("opening_plies", 0)
                )
        # The rule sweeps with weak MCTS, then again at strength under the two-sided test.
        for game, balance in settings.items():
            for sweep in balance.get("sweeps", []):
                names = [f"{game}_{sweep['run']}"]
                self.runs[names[0]] = Run(
                    game, WEAK, tuple(sweep["sweep"]), SPRTS.get(sweep.get("sprt")), sweep["games"]
                )
                self.plots += [(names[0], f"{plot}.png") for plot in sweep.get("plots", [])]
                for stronger in ("at_strength", "with_network"):
                    if stronger in sweep:
                        names.append(f"{game}_{sweep[stronger]['run']}")
                self.sweeps.append((sweep["title"], names, sweep_keys(sweep["sweep"])))
        for game, balance in settings.items():
            for sweep in balance.get("sweeps", []):
                strong = sweep.get("at_strength")
                if strong:
                    name = f"{game}_{strong['run']}"
                    self.runs[name] = Run(
                        game,
                        strong["agents"],
                        tuple(sweep["sweep"]),
                        SPRTS.get(strong.get("sprt")),
                        strong["games"],
                    )
                    self.plots += [(name, f"{plot}.png") for plot in strong.get("plots", [])]
                # The same sweep with the game's network (on the rule sets that one
                # network plays: a narrower sweep where the game's networks differ).
                network = sweep.get("with_network")
                if network:
                    name = f"{game}_{network['run']}"
                    self.plots += [(name, f"{plot}.png") for plot in network.get("plots", [])]
                    self.runs[name] = Run(
                        game,
                        NETWORK_ANY_RULES,
                        tuple(network.get("sweep", sweep["sweep"])),
                        SPRTS.get(network.get("sprt")),
                        network["games"],
                        batch=network.get("batch", 20),
                        chunk=network.get("chunk", 0),
                    )
        # Skill depth: three rungs of the ladder in a round robin on every rule set.
        for game, balance in settings.items():
            if "skill" in balance:
                skill = balance["skill"]
                self.skill.append(f"{game}_skill")
                self.runs[f"{game}_skill"] = Run(
                    game, SKILL, tuple(skill["sweep"]), games=skill["games"]
                )
                # And up to the strongest player: random, MCTS at 400 and the network.
                top = skill.get("to_the_top")
                if top:
                    self.skill.append(f"{game}_skill_top")
                    self.runs[f"{game}_skill_top"] = Run(
                        game,
                        top.get("agents", SKILL_TOP),
                        tuple(top.get("sweep", skill["sweep"])),
                        games=top["games"],
                        batch=top.get("batch", 0),
                    )
        # An example game of each game between its strongest players, recorded for the
        # report's pictures and for `knightgym view`.
        for game, balance in settings.items():
            strongest = self.runs[f"{game}_{balance.get('example', 'net64')}"]
            self.runs[f"{game}_example"] = Run(
                game, strongest.agents, games=2, record=2, opening_plies=strongest.opening_plies
            )
        self.ladders = {
            balance["ladder"]["name"]: (
                balance["ladder"]["spec"],
                self.strengths(game),
                balance["ladder"]["games"],
            )
            for game, balance in settings.items()
        }

    def ladder_name(self, game):
        """The ladder of a game at its default rules."""
        return self.settings[game]["ladder"]["name"]

    def across_strength_runs(self, game):
        """The names of a game's runs across strength, weakest first."""
        extra = [strength["level"] for strength in self.settings[game].get("strengths", [])]
        return [f"{game}_{level}" for level in (*LEVELS, *extra)]

    def strengths(self, game):
        """The agents of a game's runs across strength, weakest first."""
        return [self.runs[name].agents for name in self.across_strength_runs(game)]

    def queue(self):
        """Every job in order, cheapest information first: the runs across strength, the
        round robins that rate them ("ladders"), the further strengths (Fairy-Stockfish),
        then the sweeps."""
        across = [f"{game}_{level}" for level in LEVELS for game in self.games]
        rest = [name for name in self.runs if name not in across]
        return across + ["ladders"] + rest

    def contents(self, superseded):
        """What the report shows of the plan, for knightgym.balance_summary, with the
        results set aside to be played again under DATA/SUPERSEDED. The package is
        imported here alone, as the plan is read where it is not built (`run`)."""
        from knightgym.balance_summary import Contents, Game

        games = [
            Game(
                game,
                self.ladder_name(game),
                [(name, self.runs[name].agents) for name in self.across_strength_runs(game)],
                (f"{game}_example", self.runs[f"{game}_example"].agents),
            )
            for game in self.games
        ]
        verdicts = [name for name, run in self.runs.items() if not run.record]
        return Contents(games, self.sweeps, self.skill, verdicts, superseded, self.plots)


def plan_of(build):
    """The report's plan from the games' balance studies, in the registry's order."""
    return Plan({game: studies.get(game, "balance") for game in studies.games("balance", build)})
