"""The built-in agents on toy games: specs, legality, strength, determinism, tree reuse."""

from __future__ import annotations

import pytest

import tests.core.toy  # noqa: F401 - registers toy-nim
from limitgames.agents import AgentSpecError, level_spec, list_agents, make_agent
from limitgames.agents.budget import Budget
from limitgames.agents.evaluation import neutral_evaluation, register_evaluation, squash
from limitgames.core import State, get_game
from tests.agents.toy_tricks import TricksState


def nim(pile: int, players: int = 2) -> State:
    state = get_game("toy-nim").new_initial_state(seed=1, players=players)
    state.pile = pile  # type: ignore[attr-defined]
    return state


def play(game: str, specs: list[str], seed: int, **variant: object) -> list[float]:
    state = get_game(game).new_initial_state(seed=seed, **variant)
    agents = [make_agent(spec, seed * 7 + i) for i, spec in enumerate(specs)]
    while not state.is_terminal():
        action = agents[state.current_player()].choose(state)
        assert state.is_legal(action)
        state.apply(action)
    return state.returns()


def test_every_builtin_agent_is_listed_with_help() -> None:
    agents = list_agents()
    for name in ("random", "heuristic", "mcts", "ismcts", "alphabeta"):
        assert agents.get(name)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:iterations=0", "at least 1"),
        ("mcts:seconds=-1", "above 0"),
        ("mcts:playouts=smart", "random, heuristic"),
        ("mcts:speed=3", "unknown option"),
        ("ismcts:iterations=many", "not an integer"),
        ("alphabeta:depth=x", "not an integer"),
        ("heuristic:epsilon=2", "0..1"),
        ("nobody", "unknown agent"),
        ("mcts:seconds", "not key=value"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


def test_specs_set_the_budget() -> None:
    agent = make_agent("mcts:iterations=50,c=0.7")
    assert agent.budget == Budget(iterations=50)  # type: ignore[attr-defined]
    assert agent.c == 0.7  # type: ignore[attr-defined]
    assert make_agent("mcts").budget == Budget(seconds=1.0)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec", ["mcts:iterations=400", "alphabeta:depth=6", "ismcts:iterations=400"]
)
def test_search_finds_the_winning_take_in_nim(spec: str) -> None:
    # From a pile of 5 the only winning move is to leave 4 (take 1).
    agent = make_agent(spec, seed=3)
    assert agent.choose(nim(5)) == 1
    assert agent.choose(nim(7)) == 3


def test_alphabeta_proves_the_win_and_reports_it() -> None:
    agent = make_agent("alphabeta:depth=12", seed=0)
    agent.choose(nim(9))
    assert agent.last_info["proven"] == "win"
    assert agent.last_info["value"] == 1.0
    agent.choose(nim(8))
    assert agent.last_info["proven"] == "loss"


def test_mcts_last_info_is_informative() -> None:
    agent = make_agent("mcts:iterations=300", seed=0)
    agent.choose(nim(9))
    info = agent.last_info
    assert info["iterations"] == 300
    assert 0 < info["share"] <= 1 and 0 <= info["win"] <= 1
    assert info["visits"] > 100 and info["top"][0][0] == "take 1"


def test_mcts_with_three_seats_backs_up_every_seats_return() -> None:
    # Three-seat Nim: whoever takes the last counter wins; from 4 the mover
    # cannot win at once but seat 0 taking 3 lets seat 1 win... any choice is legal;
    # from 3 the mover takes all.
    agent = make_agent("mcts:iterations=200", seed=1)
    assert agent.choose(nim(3, players=3)) == 3
    for seed in range(3):
        assert play("toy-nim", ["mcts:iterations=50"] * 3, seed, players=3) is not None


def test_iteration_budget_is_reproducible() -> None:
    state = get_game("toy-tricks").new_initial_state(seed=5, hand=4)
    for spec in ("mcts:iterations=200", "ismcts:iterations=200", "heuristic"):
        first = make_agent(spec, seed=11)
        second = make_agent(spec, seed=11)
        assert first.choose(state) == second.choose(state)
        first.last_info.pop("seconds", None)
        second.last_info.pop("seconds", None)
        assert first.last_info == second.last_info


def test_mcts_reuses_the_subtree_of_the_position_reached() -> None:
    agent = make_agent("mcts:iterations=500", seed=2)
    state = nim(12)
    state.apply(agent.choose(state))
    state.apply(1)  # the other seat
    agent.choose(state)
    assert agent.last_info["reused"] > 0
    fresh = nim(11)
    agent.choose(fresh)  # an unrelated game: no reuse
    assert agent.last_info["reused"] == 0


def test_ismcts_choice_does_not_depend_on_hidden_cards() -> None:
    # Seat 0 holds 2, 5, 9 and leads; seat 1's hidden hand differs.
    base = None
    for other in ([1, 3, 4], [6, 7, 8], [1, 4, 8], [3, 6, 7]):
        state = TricksState.from_hands([[2, 5, 9], other])
        agent = make_agent("ismcts:iterations=300", seed=42)
        choice = agent.choose(state)
        info = {k: v for k, v in agent.last_info.items() if k != "seconds"}
        if base is None:
            base = (choice, info)
        assert (choice, info) == base
    # ...and the same after a card was played to it.
    choices = set()
    for other in ([1, 3, 4], [1, 7, 8]):
        state = TricksState.from_hands([[2, 5, 9], other])
        state.leader = 1  # type: ignore[attr-defined]
        state.apply(1)
        choices.add(make_agent("ismcts:iterations=300", seed=9).choose(state))
    assert len(choices) == 1


def test_ismcts_beats_random_at_tricks() -> None:
    wins = losses = 0
    for seed in range(60):
        specs = (
            ["ismcts:iterations=150", "random"]
            if seed % 2 == 0
            else ["random", "ismcts:iterations=150"]
        )
        me = 0 if seed % 2 == 0 else 1
        result = play("toy-tricks", specs, seed, hand=4)
        wins += result[me] > 0
        losses += result[me] < 0
    assert wins >= 2 * losses


def test_heuristic_uses_the_registered_evaluation() -> None:
    # In Nim, leaving a multiple of 4 is good: an evaluation that says so makes
    # the one-ply agent play perfectly.
    def nim_value(state: State) -> list[float]:
        if state.is_terminal():
            return neutral_evaluation(state)
        good = state.pile % 4 == 0  # type: ignore[attr-defined]
        mover = state.current_player()
        return [(-1.0 if good else 1.0) * (1 if seat == mover else -1) for seat in range(2)]

    register_evaluation("toy-nim", nim_value)
    try:
        agent = make_agent("heuristic", seed=0)
        assert agent.choose(nim(6)) == 2
        assert agent.choose(nim(7)) == 3
        assert agent.last_info["win"] == 1.0
    finally:
        from limitgames.agents import evaluation

        evaluation._CUSTOM.pop("toy-nim", None)


def test_heuristic_with_epsilon_one_plays_at_random() -> None:
    agent = make_agent("heuristic:epsilon=1", seed=0)
    agent.choose(nim(9))
    assert agent.last_info["random"] is True


def test_squash_is_relative_and_bounded() -> None:
    values = squash([3.0, 1.0], scale=2.0)
    assert values[0] > 0 > values[1] and abs(values[0] + values[1]) < 1e-12
    assert all(-1 <= v <= 1 for v in squash([100.0, -100.0, 0.0], 1.0))


def test_levels() -> None:
    # hex: the compiled MCTS at hard and expert, each capped at its documented wall time a
    # move (docs/agents.md, "Levels for people"); easy does not search
    assert level_spec("hex", "hard").startswith("hexmcts")
    for level, most in (("easy", 0.0), ("medium", 3.0), ("hard", 3.0), ("expert", 20.0)):
        spec = level_spec("hex", level)
        options = dict(o.split("=") for o in spec.partition(":")[2].split(",") if o)
        assert float(options.get("seconds", 0.0)) <= most, spec
    assert level_spec("cards", "Expert").startswith("ismcts")
    assert level_spec("toy-tricks", "medium").startswith("ismcts")
    for level in ("easy", "medium", "hard", "expert"):
        make_agent(level_spec("hex", level), game="hex")
    with pytest.raises(AgentSpecError, match="levels: easy"):
        level_spec("hex", "grandmaster")


def test_agents_play_three_player_hex_to_the_end() -> None:
    from limitgames.core import available_games

    if "hex" not in available_games():
        pytest.skip("the hex engine is not available")
    result = play(
        "hex", ["mcts:iterations=30", "heuristic", "alphabeta:depth=1"], 1, players=3, size=5
    )
    assert len(result) == 3


def test_hexmcts_tactical_options_play_hex_and_bad_values_are_refused() -> None:
    spec = "hexmcts:iterations=300,playouts=tactical,greed=0.5,c=1,order=1,widen=2,rave=300"
    result = play("hex", [spec, "hexmcts:iterations=300,playouts=tactical"], 3, size=4)
    assert sorted(result) in ([-1.0, 1.0], [0.0, 0.0])
    agent = make_agent(spec)
    search = agent.compiled_search_for("hex")  # type: ignore[attr-defined]
    params = search.search.params.tolist()
    assert params[7:] == [0.5, 1.0, 2.0, 300.0]  # greed, order, widen, rave as the spec says
    with pytest.raises(AgentSpecError, match="greed"):
        make_agent("hexmcts:playouts=tactical,greed=1.5")
    with pytest.raises(AgentSpecError, match="playouts"):
        make_agent("hexmcts:playouts=smart")


def test_options_a_game_does_not_take_are_refused_with_their_name() -> None:
    # the compiled search's options are not the generic search's
    for option in ("playouts=tactical", "table=no", "widen=2", "contempt=0.3"):
        with pytest.raises(AgentSpecError, match=option.split("=")[0]) as caught:
            make_agent(f"mcts:{option}")
        assert "\n" not in str(caught.value)
    # the compiled search is hex's only: refused on cards, at once with the game given, or
    # at the first move without it
    with pytest.raises(AgentSpecError, match="hexmcts plays only hex"):
        make_agent("hexmcts:iterations=10", game="cards")
    agent = make_agent("hexmcts:iterations=10", seed=1)
    state = get_game("toy-tricks").new_initial_state(seed=1)
    with pytest.raises(AgentSpecError, match="hexmcts plays only hex"):
        agent.choose(state)
    # a game without a rule-of-thumb policy or an exact solver refuses those options
    with pytest.raises(AgentSpecError, match="playouts=policy"):
        make_agent("mcts:playouts=policy", game="toy-nim")
    with pytest.raises(AgentSpecError, match="solve=yes"):
        make_agent("mcts:solve=yes", game="toy-nim")
    make_agent("mcts:solve=yes", game="hex")  # hex has its solver
