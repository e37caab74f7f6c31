"""Train a small policy against the rule-based bot with the Gymnasium environment (numpy only).

The learner plays seat 0 (it starts the round) of classic two-player single rounds in
``loveletter/LoveLetter-v0`` against the ``"beginner"`` bot. Its policy is a one-hidden-layer
network (64 tanh units) over the observation vector divided by the observation space's ``high``;
its logits are masked by ``info["action_mask"]`` (illegal actions get probability 0). It learns by
REINFORCE with a learned linear baseline (the reward, +1 win / -1 loss, comes at the end of the
round), 32 rounds per update, Adam with a learning rate decaying linearly to 0, and a small entropy
bonus. No torch: the gradients are written out below.

Every ``evaluate_every`` training rounds it plays the same 1000 seeded rounds against the beginner,
with the policy sampled and with its most likely action (greedy), and prints the win rates. The
references are measured on those same rounds, in the same seat: a uniformly random legal action,
and the beginner bot itself (beginner vs beginner, a little above 50% because seat 0 starts). At
the end the greedy policy and the beginner play 4000 other seeded rounds, with 95% Wilson intervals.
The learning curve is saved as a PNG (``--out``).

What it measured with the defaults, and how long it took: ``examples/README.md``. The greedy curve
starts at 37.0%, not at the random level: the untrained policy's logits are all equal, so its argmax
is the lowest-numbered legal action, which mostly plays the lower card.

Options: ``--episodes`` (training rounds), ``--seed``, ``--out`` (the PNG, default
``learning_curve.png`` in the current folder), ``--quick`` (a few seconds, for tests). The run is
reproducible with the seed (same numpy, same machine).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import matplotlib
import numpy as np
import numpy.typing as npt

from loveletter.bots import make_bot
from loveletter.engine import view
from loveletter.envs.gymnasium import LoveLetterEnv  # importing it registers loveletter/LoveLetter-v0
from loveletter.tournament import wilson

matplotlib.use("Agg")  # no display needed: the curve goes to a file
import matplotlib.pyplot as plt  # after choosing the backend

Array = npt.NDArray[np.float64]
Mask = npt.NDArray[Any]
Env = gymnasium.Env[Any, Any]
#: Chooses an action number from (env, observation, info).
Player = Callable[[Env, npt.NDArray[Any], dict[str, Any]], int]
ENV_ID = "loveletter/LoveLetter-v0"
# The evaluation rounds are seeded from here on (the training rounds come from the env's own generator).
EVALUATION_SEEDS = 10**6
FINAL_SEEDS = 2 * 10**6


# ----------------------------------------------------------------------------------------- the policy


def masked_softmax(logits: Array, mask: Mask) -> Array:
    """Softmax over the legal actions only: illegal logits count as -inf, so they get probability 0.

    Works on one row or a batch of rows (the last axis is the actions); every row needs a legal action.
    """
    legal = np.asarray(mask).astype(bool)
    z = np.where(legal, logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)  # the largest legal logit becomes 0: no overflow in exp
    e = np.exp(z)  # exp(-inf) = 0 for the illegal actions
    p: Array = e / e.sum(axis=-1, keepdims=True)
    return p


@dataclass
class Adam:
    """Adam (Kingma & Ba), one pair of moments per parameter array; :meth:`step` *ascends*."""

    lr: float
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    t: int = 0
    moments: dict[str, tuple[Array, Array]] = field(default_factory=dict)

    def step(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        self.t += 1
        for name, g in grads.items():
            m, v = self.moments.get(name, (np.zeros_like(g), np.zeros_like(g)))
            m = self.beta1 * m + (1 - self.beta1) * g
            v = self.beta2 * v + (1 - self.beta2) * g * g
            self.moments[name] = (m, v)
            m_hat = m / (1 - self.beta1**self.t)
            v_hat = v / (1 - self.beta2**self.t)
            params[name] += self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


class Policy:
    """A one-hidden-layer softmax policy over the scaled observation, and a linear value baseline.

    ``scale``: the observation is divided by it (the observation space's ``high``), so every input
    is in [0, 1] and no feature (the deck's size goes up to 16) dominates the first steps.
    """

    def __init__(self, inputs: int, actions: int, hidden: int, scale: Array, rng: np.random.Generator) -> None:
        self.scale = np.where(scale > 0, scale, 1.0)
        self.params: dict[str, Array] = {
            "w1": rng.normal(0.0, 1.0 / np.sqrt(inputs), (inputs, hidden)),
            "b1": np.zeros(hidden),
            # Zero output weights: the untrained policy is uniform over the legal actions (a random player).
            "w2": np.zeros((hidden, actions)),
            "b2": np.zeros(actions),
            "v": np.zeros(inputs),
            "c": np.zeros(1),
        }

    def features(self, observation: npt.NDArray[Any]) -> Array:
        return np.asarray(observation, dtype=np.float64) / self.scale

    def forward(self, x: Array) -> tuple[Array, Array]:
        """The hidden layer and the logits of a batch of feature rows."""
        h = np.tanh(x @ self.params["w1"] + self.params["b1"])
        return h, h @ self.params["w2"] + self.params["b2"]

    def probabilities(self, x: Array, mask: Mask) -> Array:
        return masked_softmax(self.forward(x)[1], mask)

    def value(self, x: Array) -> Array:
        v: Array = x @ self.params["v"] + self.params["c"][0]
        return v

    def gradients(
        self, x: Array, masks: Mask, actions: npt.NDArray[np.int64], returns: Array, entropy: float
    ) -> tuple[dict[str, Array], dict[str, Array]]:
        """REINFORCE with a learned baseline, for a batch of decisions (rows of ``x``).

        Returns the gradients to *ascend*: of ``mean(advantage * log pi(a|x)) + entropy * mean(H(pi))``
        for the policy, and of ``-mean((return - V(x))^2) / 2`` for the baseline. The advantage
        (return - V(x)) takes out what the position alone predicts, which cuts the variance a lot:
        much of a Love Letter round's outcome is the deal, not the learner's choices.
        """
        n = len(actions)
        h, logits = self.forward(x)
        p = masked_softmax(logits, masks)
        advantage = returns - self.value(x)
        # d log pi(a) / d logits = onehot(a) - p; the illegal actions have p = 0 so they get nothing.
        d_logits = -p * advantage[:, None]
        d_logits[np.arange(n), actions] += advantage
        if entropy:
            # dH/dz_j = -p_j (log p_j + H), over the legal actions (p log p -> 0 for the others).
            log_p = np.log(np.where(p > 0, p, 1.0))
            h_pi = -(p * log_p).sum(axis=1, keepdims=True)
            d_logits += entropy * (-p * (log_p + h_pi))
        d_logits /= n
        d_hidden = (d_logits @ self.params["w2"].T) * (1 - h * h)  # back through tanh
        policy = {
            "w2": h.T @ d_logits,
            "b2": d_logits.sum(axis=0),
            "w1": x.T @ d_hidden,
            "b1": d_hidden.sum(axis=0),
        }
        value = {"v": x.T @ advantage / n, "c": np.array([advantage.mean()])}
        return policy, value


# ----------------------------------------------------------------------------------------- players


def policy_player(policy: Policy, rng: np.random.Generator, greedy: bool) -> Player:
    """The policy's choice: sampled from it, or its most likely action (``greedy``)."""

    def act(env: Env, observation: npt.NDArray[Any], info: dict[str, Any]) -> int:
        p = policy.probabilities(policy.features(observation)[None, :], info["action_mask"])[0]
        return int(p.argmax()) if greedy else int(rng.choice(len(p), p=p))

    return act


def random_player(rng: np.random.Generator) -> Player:
    """A uniformly random legal action."""

    def act(env: Env, observation: npt.NDArray[Any], info: dict[str, Any]) -> int:
        return int(rng.choice(np.flatnonzero(info["action_mask"])))

    return act


def bot_player(level: str, seed: int) -> Player:
    """One of our bots in the learner's seat, seeing that seat's view only (as the env's bots do)."""
    bot = make_bot(level, seed)

    def act(env: Env, observation: npt.NDArray[Any], info: dict[str, Any]) -> int:
        game = env.unwrapped
        assert isinstance(game, LoveLetterEnv) and game.match is not None
        return int(game.actions.number(bot.choose(view(game.match, game.seat))))

    return act


def wins(env: Env, player: Player, seeds: range) -> float:
    """Rounds won by ``player`` in the learner's seat, one round per seed (a shared win counts half)."""
    won = 0.0
    for seed in seeds:
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(player(env, observation, info))
            done = terminated or truncated
        won += {"win": 1.0, "shared win": 0.5}.get(info["outcome"], 0.0)
    return won


# ----------------------------------------------------------------------------------------- training


@dataclass
class Settings:
    episodes: int = 100_000  # training rounds
    batch: int = 32  # rounds per update
    hidden: int = 64
    lr: float = 3e-3  # Adam's step at the start, decaying linearly to 0
    value_lr: float = 1e-2
    entropy: float = 0.01
    evaluate_every: int = 5_000
    evaluation_episodes: int = 1_000  # the fixed rounds of each point of the curve
    final_episodes: int = 4_000  # the rounds of the final comparison

    @classmethod
    def quick(cls) -> Settings:
        """A few seconds: a larger step so that the short run still shows it learning."""
        return cls(episodes=2_000, lr=1e-2, evaluate_every=500, evaluation_episodes=200, final_episodes=200)


@dataclass
class Result:
    settings: Settings
    #: (training rounds, sampled policy's win rate, greedy policy's win rate) on the evaluation rounds
    curve: list[tuple[int, float, float]]
    random: float  # a random legal action's win rate on the evaluation rounds
    beginner: float  # the beginner's, in the learner's seat, on the evaluation rounds
    final_greedy: float  # on the final rounds
    final_beginner: float
    seconds: float
    policy: Policy


def train(settings: Settings, seed: int, log: Callable[[str], None] = print) -> Result:
    """Train against the beginner bot, evaluating as it goes; ``log`` gets the progress lines."""
    # illegal="raise": the mask must keep every choice legal, so a slip would fail loudly, not count as a loss.
    env = gymnasium.make(ENV_ID, opponents="beginner", seat=0, illegal="raise")
    evaluation = gymnasium.make(ENV_ID, opponents="beginner", seat=0, illegal="raise")
    rng = np.random.default_rng(seed)
    space, choices = env.observation_space, env.action_space
    assert isinstance(space, gymnasium.spaces.Box) and isinstance(choices, gymnasium.spaces.Discrete)
    policy = Policy(space.shape[0], int(choices.n), settings.hidden, space.high.astype(np.float64), rng)
    adam, value_adam = Adam(settings.lr), Adam(settings.value_lr)
    # Fixed evaluation rounds: every point of the curve (and each reference) plays the same deals
    # against the same bot seeds, so the differences between points are the policy's, not luck's.
    n = settings.evaluation_episodes
    seeds = range(EVALUATION_SEEDS, EVALUATION_SEEDS + n)
    began = time.perf_counter()
    random_level = wins(evaluation, random_player(np.random.default_rng(seed)), seeds) / n
    beginner_level = wins(evaluation, bot_player("beginner", seed), seeds) / n
    log(f"on {n} evaluation rounds vs beginner: a random policy wins {random_level:.1%}, "
        f"the beginner itself {beginner_level:.1%}")
    curve: list[tuple[int, float, float]] = []

    def evaluate(played: int) -> None:
        # A generator seeded the same way each time: the sampled policy's luck is the same at every point.
        sampled = wins(evaluation, policy_player(policy, np.random.default_rng(seed), greedy=False), seeds) / n
        greedy = wins(evaluation, policy_player(policy, rng, greedy=True), seeds) / n
        curve.append((played, sampled, greedy))
        log(f"episode {played:>7}: win rate {sampled:.1%} sampled, {greedy:.1%} greedy "
            f"({time.perf_counter() - began:.0f} s)")

    evaluate(0)
    act = policy_player(policy, rng, greedy=False)
    env.reset(seed=seed)  # the training rounds then come from the env's generator
    played = 0
    while played < settings.episodes:
        xs: list[Array] = []
        masks: list[Mask] = []
        actions: list[int] = []
        returns: list[float] = []
        for _ in range(min(settings.batch, settings.episodes - played)):
            observation, info = env.reset()
            done, reward = False, 0.0
            first = len(actions)
            while not done:
                action = act(env, observation, info)
                xs.append(policy.features(observation))
                masks.append(info["action_mask"])
                actions.append(action)
                observation, step_reward, terminated, truncated, info = env.step(action)
                reward, done = float(step_reward), terminated or truncated
            returns += [reward] * (len(actions) - first)  # the reward comes at the end (no discount)
            played += 1
            if played % settings.evaluate_every == 0:
                evaluate(played)
        policy_step, value_step = policy.gradients(
            np.array(xs), np.array(masks), np.array(actions), np.array(returns), settings.entropy
        )
        # Policy-gradient estimates stay noisy however long it trains: shrinking the step lets the
        # policy settle instead of wandering around its best (+2 and +4 points at the end in two trials).
        adam.lr = settings.lr * (1 - played / settings.episodes)
        adam.step(policy.params, policy_step)
        value_adam.step(policy.params, value_step)
    if not curve or curve[-1][0] != played:
        evaluate(played)

    final = range(FINAL_SEEDS, FINAL_SEEDS + settings.final_episodes)
    final_greedy = wins(evaluation, policy_player(policy, rng, greedy=True), final) / len(final)
    final_beginner = wins(evaluation, bot_player("beginner", seed), final) / len(final)
    return Result(settings, curve, random_level, beginner_level, final_greedy, final_beginner,
                  time.perf_counter() - began, policy)


def interval(rate: float, rounds: int) -> str:
    lo, hi = wilson(round(rate * rounds), rounds)
    return f"{rate:.1%} (95% CI {lo:.1%}-{hi:.1%})"


def plot(result: Result, out: Path) -> None:
    """The learning curve with its 95% Wilson band and the two reference levels, as a PNG."""
    n = result.settings.evaluation_episodes
    x = [e for e, _, _ in result.curve]
    sampled = [s for _, s, _ in result.curve]
    greedy = [g for _, _, g in result.curve]
    band = [wilson(round(s * n), n) for s in sampled]
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    ax.fill_between(x, [lo for lo, _ in band], [hi for _, hi in band], alpha=0.2, color="C0")
    ax.plot(x, sampled, marker="o", color="C0", label="learner, sampled (band: 95% Wilson)")
    ax.plot(x, greedy, marker=".", color="C1", alpha=0.8, label="learner, greedy")
    ax.axhline(result.beginner, color="black", linestyle=":", label=f"beginner itself ({result.beginner:.1%})")
    ax.axhline(result.random, color="grey", linestyle="--", label=f"random policy ({result.random:.1%})")
    ax.set_xlabel("training rounds")
    ax.set_ylabel(f"win rate vs beginner ({n} fixed rounds)")
    ax.set_title("REINFORCE (numpy) vs the rule-based bot: classic, 2 players, seat 0")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--episodes", type=int, default=None,
                        help=f"training rounds (default {Settings().episodes}; --quick: {Settings.quick().episodes})")
    parser.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    parser.add_argument("--out", type=Path, default=Path("learning_curve.png"),
                        help="the learning curve's PNG (default learning_curve.png)")
    parser.add_argument("--quick", action="store_true", help="a tiny run (seconds), for tests")
    args = parser.parse_args(argv)
    settings = Settings.quick() if args.quick else Settings()
    if args.episodes is not None:
        if args.episodes < 1:
            parser.error("--episodes must be at least 1")
        settings.episodes = args.episodes
    if args.seed < 0:  # (numpy's generators take none below 0: a traceback)
        parser.error(f"--seed must be a whole number from 0, not {args.seed}")
    # (a curve that cannot be written was found after minutes of training, as a traceback)
    if args.out.is_dir():
        parser.error(f"--out: {args.out} is a folder")
    if not args.out.resolve().parent.is_dir():
        parser.error(f"--out: there is no folder {args.out.parent}")
    if args.out.suffix.lower() != ".png":
        parser.error(f"--out: the learning curve is a PNG: give a name ending in .png, not {args.out.name}")
    result = train(settings, args.seed)
    rounds = settings.final_episodes
    print(f"after {settings.episodes} training rounds ({result.seconds:.0f} s), on {rounds} new rounds vs beginner:")
    print(f"  learner (greedy) wins {interval(result.final_greedy, rounds)}")
    print(f"  beginner itself wins {interval(result.final_beginner, rounds)}")
    print(f"  (random policy: {result.random:.1%} on the evaluation rounds)")
    try:  # (after the figures: they are not lost where it cannot be written)
        plot(result, args.out)
    except OSError as err:
        raise SystemExit(f"train_gymnasium.py: cannot write the learning curve: {err}") from None
    print(f"learning curve: {args.out}")


if __name__ == "__main__":
    main()
