"""The benchmark scripts' command lines: a bad option is a one-line usage error (status 2), never a
traceback, a hang or figures made of nothing; and the strength benchmark runs with the real expert."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

BAD = [
    ("best_vs_random.py", ["--seed", "5"], "argument --seed: only with --check, --play or --regret"),  # was ignored
    ("strength.py", ["--budget", "0"], "argument --budget: must be at least 1, not 0"),
    ("strength.py", ["--seed", "x"], "argument --seed: not a whole number: 'x'"),  # "invalid int value"
    ("hints.py", ["--seed", "1.5"], "argument --seed: not a whole number: '1.5'"),
    ("strength.py", ["--jobs", "-1"], "argument --jobs: must be at least 1, not -1"),
    ("strength.py", ["--rounds", "5", "--only", "nosuchline"], "--only 'nosuchline' matches none of: classic 2p:"),
    ("ceiling.py", ["--only", "nosuch"], "--only 'nosuch' matches none of: classic 2p: seer vs random;"),
    ("belief_spread.py", ["--only", "7p"], "--only '7p' matches none of: classic 4p; 2019 4p; 2019 5p; 2019 6p"),
    ("reading.py", ["--rounds", "0"], "argument --rounds: must be at least 1, not 0"),
    ("reading.py", ["--only", "vs nobody"], "--only 'vs nobody' matches none of: classic 2p vs beginner;"),
    ("engine.py", ["--trials", "0"], "argument --trials: must be at least 1, not 0"),
    ("engine.py", ["--seconds", "nan"], "argument --seconds: must be a finite number above 0, not nan"),
    ("engine.py", ["--seconds", "0"], "argument --seconds: must be a finite number above 0, not 0"),
    ("batch.py", ["--repeats", "0"], "argument --repeats: must be at least 1, not 0"),
    ("batch.py", ["--rounds", "-5"], "argument --rounds: must be at least 1, not -5"),
    ("batch.py", ["--engine-seconds", "-1"], "argument --engine-seconds: must be a finite number above 0, not -1"),
    ("load.py", ["--tables", "-2"], "argument --tables: must be at least 1, not -2"),
    ("load.py", ["--seconds", "inf"], "argument --seconds: must be a finite number above 0, not inf"),
    ("load.py", ["--think", "-1"], "argument --think: must be a finite number of at least 0, not -1"),
    ("vs_openspiel.py", ["--think", "nan"], "argument --think: must be a finite number above 0, not nan"),
    ("vs_openspiel.py", ["--rounds", "x"], "argument --rounds: not a whole number: 'x'"),
    ("best_vs_random.py", ["--play", "3", "--regret", "3"], "argument --regret: not allowed with argument --play"),
    ("best_vs_random.py", ["--jobs", "5"], "argument --jobs: must be at most 2, not 5"),
    ("best_vs_random.py", ["--jobs", "x"], "argument --jobs: not a whole number: 'x'"),  # as every other script
    ("best_vs_random.py", ["--check", "-1"], "argument --check: must be at least 1, not -1"),
    ("best_vs_random.py", ["--play", "3", "--jobs", "2"],
     "argument --jobs: only for the solve and --check (--play and --regret run in one process)"),
    ("beginner_weights.py", ["--rounds", "10"], "argument --rounds: must be at least 32, not 10"),
    ("beginner_weights.py", ["--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
    ("beginner_weights.py", ["--sweeps", "0"], "argument --sweeps: must be at least 1, not 0"),  # was a check alone
    ("beginner_weights.py", ["--factors", ",".join(["1"] * 21)], "argument --factors: at most 20 numbers, not 21"),
    ("beginner_weights.py", ["--factors", "nan"], "argument --factors: finite numbers from -1,000 to 1,000, not 'nan'"),
    # an infinite weight was kept, then the beginner's scores were not numbers: a worker's traceback
    ("beginner_weights.py", ["--factors", "1e308"], "argument --factors: finite numbers from -1,000 to 1,000"),
    ("beginner_weights.py", ["--factors=-1001,2"], "argument --factors: finite numbers from -1,000 to 1,000"),
    ("strength.py", ["--rounds", "100000000"], "argument --rounds: must be at most 10,000,000, not 100,000,000"),
    ("strength.py", ["--budget", "5", "--only", "beginner vs random"],
     "argument --budget: no line chosen has an expert to give it to"),
    ("strength.py", ["--budget", "100000000000"], "argument --budget: must be at most 10,000,000"),
    ("strength.py", ["--jobs", "1000"], "argument --jobs: must be at most 64, not 1,000"),
    ("batch.py", ["--rounds", "1000000000000"], "argument --rounds: must be at most 50,000,000"),
    ("vs_openspiel.py", ["--think", "1e308"], "argument --think: must be at most 60, not 1e308"),
    ("vs_openspiel.py", ["--jobs", "1000"], "argument --jobs: must be at most 64, not 1,000"),
    ("engine.py", ["--bogus"], "unrecognized arguments: --bogus"),
    ("engine.py", ["--trials", "100000"], "argument --trials: must be at most 100, not 100,000"),
    ("best_vs_random.py", ["--bot", "expert"], "argument --bot: only with --regret"),
    ("belief_spread.py", ["--only", "2019 5p", "--only", "7p"], "--only '7p' matches none of"),
    ("hints.py", ["--only", "5p"], "--only '5p' matches none of: classic 2p; classic 4p; 2019 6p"),
    ("hints.py", ["--rounds", "0"], "argument --rounds: must be at least 1, not 0"),
    # one simulation made OpenSpiel's ISMCTS fail an assertion: a worker's traceback
    ("vs_openspiel.py", ["--simulations", "1"], "argument --simulations: must be at least 2, not 1"),
    ("best_vs_random.py", ["--bot", "beginner"], "argument --bot: only with --regret"),  # the default: was ignored
    # counts and times with no upper bound ran for ever
    ("reading.py", ["--rounds", "100000000000000000000"], "argument --rounds: must be at most 10,000, not 100,"),
    ("belief_spread.py", ["--rounds", "10001"], "argument --rounds: must be at most 10,000, not 10,001"),
    ("best_vs_random.py", ["--check", "10000001"], "argument --check: must be at most 10,000,000"),
    ("best_vs_random.py", ["--play", "1000001"], "argument --play: must be at most 1,000,000"),
    ("best_vs_random.py", ["--regret", "1000001"], "argument --regret: must be at most 1,000,000"),
    ("vs_openspiel.py", ["--rounds", "100001"], "argument --rounds: must be at most 100,000"),
    ("vs_openspiel.py", ["--simulations", "100001"], "argument --simulations: must be at most 100,000"),
    ("beginner_weights.py", ["--rounds", "10000001"], "argument --rounds: must be at most 10,000,000"),
    ("beginner_weights.py", ["--sweeps", "101"], "argument --sweeps: must be at most 100, not 101"),
    ("batch.py", ["--repeats", "101"], "argument --repeats: must be at most 100, not 101"),
    ("batch.py", ["--engine-seconds", "601"], "argument --engine-seconds: must be at most 600, not 601"),
    ("engine.py", ["--seconds", "3601"], "argument --seconds: must be at most 3600, not 3601"),
    ("load.py", ["--tables", "2001"], "argument --tables: must be at most 2,000, not 2,001"),
    ("load.py", ["--seconds", "3601"], "argument --seconds: must be at most 3600, not 3601"),
    ("load.py", ["--think", "1e300"], "argument --think: must be at most 60, not 1e300"),
    # an empty --only is in every title: it kept every line
    ("hints.py", ["--only", ""], "argument --only: an empty text would match every line"),
    ("reading.py", ["--only", "vs expert", "--only", ""], "argument --only: an empty text would match every line"),
    ("belief_spread.py", ["--only", ""], "argument --only: an empty text would match every line"),
    ("strength.py", ["--only", ""], "argument --only: an empty text would match every line"),
    ("ceiling.py", ["--only", ""], "argument --only: an empty text would match every line"),
    ("calibration.py", ["--only", ""], "argument --only: an empty text would match every line"),
    ("calibration.py", ["--only", "5p"], "--only '5p' matches none of: classic 2p vs random; classic 2p vs"),
    ("calibration.py", ["--rounds", "100001"], "argument --rounds: must be at most 100,000, not 100,001"),
    # a value or an argument with a line break or a terminal's escape in it, told on one line
    ("engine.py", ["--seconds", "\r\n-1\n"], "argument --seconds: must be a finite number above 0, not -1 ("),
    ("engine.py", ["x\x1b[2J\ny"], "unrecognized arguments: x\\x1b[2J\\ny ("),
]


def run(script: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": ""})


@pytest.fixture
def options(load_script: Callable[[str], ModuleType]) -> ModuleType:
    """The benchmarks' shared module, loaded afresh (as every script of benchmarks/ is in the tests)."""
    return load_script("options")


@pytest.mark.parametrize(("script", "args", "says"), BAD, ids=[f"{s}{' '.join(a)}" for s, a, _ in BAD])
def test_a_bad_option_is_a_one_line_usage_error(script, args, says):
    done = run(script, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"{script}: {done.stderr.split(': ', 1)[1]}"  # one line, the script's name first
    assert done.stderr.count("\n") == 1 and says in done.stderr
    assert done.stderr.endswith(f" (see {script} --help)\n")


def test_a_seed_numpy_would_refuse_is_taken():
    """numpy takes seeds from 0 to 2**32 - 1: the OpenSpiel benchmark crashed for seeds above 4294."""
    done = run("vs_openspiel.py", "--rounds", "1", "--jobs", "1", "--think", "0.01", "--seed", "5000", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "expert wins" in done.stdout


def test_the_strength_benchmark_with_the_real_expert():
    done = run("strength.py", "--rounds", "6", "--jobs", "1", "--budget", "30",
               "--only", "classic 2p: expert vs beginner", timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and lines[1].startswith("classic 2p: expert vs beginner   ")
    assert re.search(r"expert wins \d+\.\d% \(\d+\.\d%-\d+\.\d%\); rating [+-]\d+ ± \d+ Elo", lines[1])
    assert re.fullmatch(r"expert: median think time [\d.]+ ms per move over \d+ moves .*; [\d,]+ iterations per"
                        r" second \(30 per searching move\)", lines[2])


@pytest.mark.parametrize("script", ["strength.py", "best_vs_random.py", "vs_openspiel.py"])
def test_a_ctrl_c_while_the_modules_load_is_one_line(script):
    """The scripts load the game's modules at their top, before :func:`run` catches a Ctrl-C: one
    then gave a traceback through the modules and status -2. The Ctrl-C here comes exactly then, as
    ``loveletter.tournament.runner`` is imported (every script loads it, through ``options``)."""
    hook = (
        "import os, signal, sys\n"
        "class CtrlC:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'loveletter.tournament.runner':\n"
        "            os.kill(os.getpid(), signal.SIGINT)\n"
        "sys.meta_path.insert(0, CtrlC())\n"
        f"sys.argv = [{str(BENCHMARKS / script)!r}]\n"
        f"sys.path.insert(0, {str(BENCHMARKS)!r})\n"
        f"exec(compile(open(sys.argv[0]).read(), sys.argv[0], 'exec'), {{'__name__': '__main__'}})\n"
    )
    done = subprocess.run([sys.executable, "-c", hook], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 130 and done.stdout == ""
    assert done.stderr == f"{script}: interrupted\n"  # one line, no empty one before it in a file


def test_the_workers_of_a_benchmarks_pool_ignore_ctrl_c(options):
    """A terminal's Ctrl-C reaches every process of its group: the workers of best_vs_random.py,
    beginner_weights.py, vs_openspiel.py and ceiling.py each printed a traceback beside the
    script's one line. Their pools' workers now ignore it, and the script alone answers."""
    import signal

    quiet_pool = options.quiet_pool

    with quiet_pool(2) as pool:
        in_workers = pool.map(signal.getsignal, [signal.SIGINT] * 4)
    assert in_workers == [signal.SIG_IGN] * 4
    assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN  # here a Ctrl-C still counts
    for script in ("best_vs_random.py", "beginner_weights.py", "vs_openspiel.py", "ceiling.py"):
        text = (BENCHMARKS / script).read_text()
        assert "quiet_pool(" in text and "Pool(" not in text, script  # every pool they start is one


@pytest.mark.parametrize(("signum", "a_job"), [("SIGTERM", False), ("SIGHUP", False), ("SIGTERM", True)],
                         ids=["sigterm", "hang-up", "sigterm-to-a-job"])
def test_a_stop_from_outside_while_a_benchmarks_pool_plays_is_one_line(tmp_path, signum, a_job):
    """A hang-up or SIGTERM while a benchmark's own pool plays (ceiling.py's, as best_vs_random.py's,
    beginner_weights.py's and vs_openspiel.py's) stops it as Ctrl-C does, as the README says: it ended
    the script alone, with no word and status 143, and its workers played on (then printed tracebacks
    to a pipe nobody read). Every process of the script's group is gone when it has answered. So too
    for a job a script started with ``&``, which ignores Ctrl-C and still does (the terminal's Ctrl-C
    stopped it: the benchmark made Ctrl-C a KeyboardInterrupt again)."""
    import signal
    import time

    errors = tmp_path / "stderr"
    with errors.open("w") as stderr:
        script = subprocess.Popen([sys.executable, str(BENCHMARKS / "ceiling.py"), "--rounds", "400", "--jobs", "2",
                                   "--only", "vs random"], stdout=subprocess.PIPE, stderr=stderr, text=True,
                                  env={**os.environ, "PYTHONPATH": ""}, start_new_session=True,
                                  preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if a_job else None)
        try:
            assert script.stdout is not None
            assert script.stdout.readline().startswith("ceiling:")  # its pool starts next
            time.sleep(3)  # its workers started, and playing
            if a_job:
                os.killpg(script.pid, signal.SIGINT)  # a Ctrl-C at the terminal
                time.sleep(1)
                assert script.poll() is None
            script.send_signal(getattr(signal, signum))
            status = script.wait(timeout=60)
            deadline = time.monotonic() + 10  # (its workers stopped, an orphan is reaped in a moment)
            with pytest.raises(ProcessLookupError):  # nothing left of the script's group: no worker plays on
                while time.monotonic() < deadline:
                    os.killpg(script.pid, 0)
                    time.sleep(0.1)
        finally:
            script.kill()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(script.pid, signal.SIGKILL)
    assert status == 130
    assert errors.read_text() == "ceiling.py: interrupted\n"


def test_with_standard_output_closed_a_benchmark_says_so_before_it_plays():
    """strength.py played every round, then failed with a traceback ('NoneType' has no 'flush')."""
    done = subprocess.run([sys.executable, str(BENCHMARKS / "strength.py"), "--rounds", "2", "--jobs", "1"],
                          stderr=subprocess.PIPE, text=True, timeout=60, check=False,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr == "strength.py: standard output is closed: the figures would go nowhere\n"


#: The scripts (not the helpers they share): the files that run as a program.
SCRIPTS = sorted(path.name for path in BENCHMARKS.glob("*.py") if 'if __name__ == "__main__":' in path.read_text())


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device that is always full)")
@pytest.mark.parametrize("args", [["hints.py", "--rounds", "1", "--only", "classic 2p"],
                                  ["engine.py", "--seconds", "0.01", "--trials", "1"],
                                  ["engine.py", "--help"]], ids=" ".join)
def test_figures_that_cannot_be_written_are_one_line(args):
    """Standard output on a full disk gave an OSError's traceback, status 1 (the help: nothing, status 0)."""
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, str(BENCHMARKS / args[0]), *args[1:]], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert done.returncode == 1
    assert done.stderr == f"{args[0]}: cannot write the figures: No space left on device\n"


def test_a_reader_that_stops_reading_still_ends_it_quietly():
    done = subprocess.run(f"{sys.executable} {BENCHMARKS / 'engine.py'} --seconds 0.01 --trials 1 | head -1",
                          shell=True, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == "random rounds per second, one process, median of 1 run (lowest-highest)\n"  # not "1 runs"


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_help_describes_the_script_in_whole_sentences(script):
    """The help showed the docstring's first line: hints.py's stopped mid-sentence, in reST markup."""
    done = run(script, "--help")
    assert done.returncode == 0 and done.stderr == ""
    described = " ".join(done.stdout.split("\n\n")[1].split())  # between the usage and the options
    assert described[0].isupper() and described[-1] in ".?", described
    assert "`" not in described and ":class:" not in described, described


def test_the_hints_help_is_its_docstrings_whole_first_paragraph():
    done = run("hints.py", "--help")
    assert ("How long the hints take: the expert's estimate of every legal move (ExpertBot.move_odds), as the"
            " terminal and browser games ask it before each of a player's moves.") in " ".join(done.stdout.split())


def test_counts_of_one_are_singular(options):
    count, processes = options.count, options.processes

    assert count(1, "single round") == "1 single round" and count(2000, "single round") == "2,000 single rounds"
    assert count(0, "move") == "0 moves" and processes(1) == "1 process" and processes(2) == "2 processes"


@pytest.mark.parametrize(("args", "says"), [
    (["strength.py", "--rounds", "2", "--jobs", "1", "--budget", "7", "--only", "classic 2p: expert vs random"],
     ", the expert 7 iterations per move,"),
    (["strength.py", "--rounds", "2", "--jobs", "1", "--only", "classic 2p: expert vs random"],
     ", the expert 1,200 iterations per move,"),
    (["vs_openspiel.py", "--rounds", "1", "--jobs", "1", "--think", "0.01", "--seed", "5"], ", seed 5,"),
], ids=["strength.py --budget", "strength.py's default budget", "vs_openspiel.py --seed"])
def test_the_first_line_names_the_options_that_change_the_figures(args, says):
    """strength.py --budget 4000 printed the same first line as the default budget, and vs_openspiel.py
    did not name its seed: their figures did not say how to make them again."""
    done = run(*args, timeout=120)
    assert done.returncode == 0, done.stderr
    assert says in done.stdout.splitlines()[0]


def test_a_percentile_is_the_least_time_with_that_share_at_or_below_it(options):
    """hints.py's 90th percentile of ten times was the longest, and load.py's p99 of a hundred."""
    percentile = options.percentile

    tens = [float(n) for n in range(1, 11)]
    assert percentile(tens, 0.9) == 9.0 and percentile(tens, 0.5) == 5.0 and percentile(tens, 1.0) == 10.0
    assert percentile([float(n) for n in range(1, 101)], 0.99) == 99.0
    assert percentile([4.0], 0.9) == 4.0 and percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.9) == 5.0
