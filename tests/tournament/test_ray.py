"""The Ray backend on a real local Ray instance: the same results as the local backend.

Ray comes with the ``ray`` extra (``pip install -e '.[ray]'``; ``python3 dev.py test`` installs
it). One test on a real instance, so that only one Ray instance runs at a time under pytest-xdist; it
starts Ray twice (about 5 s each on 2 cores) and takes 10-20 s in all. A dying worker is faked: no
instance is started for it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from loveletter.tournament import Settings, TournamentError, WorkerDied, run_tournament, summarise
from loveletter.tournament.runner import chunks, stops_heard_as_ctrl_c

if os.environ.get("CI"):  # CI installs the extra (python3 dev.py test): its absence is a failure there
    import ray
else:
    ray = pytest.importorskip("ray", reason="the ray extra is not installed: pip install '.[ray]'")


@pytest.fixture
def ray_tasks(monkeypatch):
    """The games (first, last + 1) of every task handed to Ray, counted as Ray returns their results.
    Meanwhile a note goes to this process's standard output, as Ray's own do (a worker that died:
    a paragraph), and the Ctrl-C disposition of every process below this one is noted."""
    played: list[tuple[int, int]] = []
    real_get = ray.get

    def get(ref):
        chunk = real_get(ref)
        played.append((chunk.start, chunk.stop))
        os.write(1, b"a note of Ray's\n")
        ignoring_ctrl_c.update(_ctrl_c_ignored_below(os.getpid()))
        return chunk

    ignoring_ctrl_c: dict[str, bool] = {}
    monkeypatch.setattr(ray, "get", get)
    played_and_ignoring = played, ignoring_ctrl_c
    return played_and_ignoring


def _ctrl_c_ignored_below(pid: int) -> dict[str, bool]:
    """For each process below ``pid`` (by /proc; none where it is missing): whether it does not answer
    SIGINT (ignores it, or blocks it in its main thread)."""
    found: dict[str, bool] = {}
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split() if Path(
            f"/proc/{pid}/task/{pid}/children").exists() else ():
        try:
            status = Path(f"/proc/{child}/status").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
        deaf = int(fields["SigIgn"], 16) | int(fields["SigBlk"], 16)
        found[f"{fields['Name'].strip()} {child}"] = bool(deaf & 1 << (signal.SIGINT - 1))
        found.update(_ctrl_c_ignored_below(int(child)))
    return found


def test_ray_gives_the_same_results_as_local(ray_tasks, capfd):
    s = Settings(lineup=("beginner", "random", "random"), edition="2019", games=300, seed=8)
    m = Settings(lineup=("beginner", "random"), mode="matches", games=12, seed=8)
    ray_tasks, ignoring_ctrl_c = ray_tasks
    local = run_tournament(s, jobs=1, records=True)
    local_matches = run_tournament(m, jobs=1)
    assert ray_tasks == []

    # no Ray running: the runner starts a local instance with --jobs CPUs, and shuts it down after
    assert not ray.is_initialized()
    on_ray = run_tournament(s, jobs=2, backend="ray", records=True)
    assert not ray.is_initialized()
    assert sorted(ray_tasks) == chunks(300)  # every game came back from Ray, none was played here
    assert on_ray.backend == "ray"
    assert on_ray.games == local.games
    assert on_ray.records == local.records
    assert summarise(on_ray) == summarise(local)
    # what went to standard output while Ray ran went to standard error: the result alone goes there
    out, err = capfd.readouterr()
    assert out == "" and err.count("a note of Ray's") == len(ray_tasks)
    # a terminal's Ctrl-C reaches the whole process group: the Ray instance we start does not answer
    # it (its processes, stopped under the driver, made it crash at exit), and the driver shuts it
    # down. (Two of Ray's Python processes set a handler of their own: that we cannot change.)
    if Path("/proc/self/task").is_dir():
        core = {name: ignored for name, ignored in ignoring_ctrl_c.items() if name.startswith(("raylet", "gcs_server"))}
        assert len(core) == 2 and all(core.values()), ignoring_ctrl_c
        workers = [ignored for name, ignored in ignoring_ctrl_c.items()  # the games' (names cut at 15)
                   if name.startswith(("ray::IDLE", "ray::play_chun"))]
        assert workers and all(workers), sorted(ignoring_ctrl_c.items())

    # Ray already running (started by the caller): the runner uses it and leaves it running
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    ray_tasks.clear()
    try:
        on_ray_matches = run_tournament(m, jobs=2, backend="ray")
        assert ray.is_initialized()
    finally:
        ray.shutdown()
    assert sorted(ray_tasks) == chunks(12)
    assert on_ray_matches.games == local_matches.games
    assert summarise(on_ray_matches) == summarise(local_matches)


@pytest.fixture
def dying_worker(monkeypatch):
    """Ray "running", and every task's worker dying with the error given (as ``dying_worker(error)``)."""

    def dies(error: Exception) -> None:
        class Task:
            def remote(self, *args):
                return object()

        monkeypatch.setattr(ray, "is_initialized", lambda: True)  # no instance started, none shut down
        monkeypatch.setattr(ray, "remote", lambda **_: lambda function: Task())
        monkeypatch.setattr(ray, "wait", lambda pending, num_returns: (pending[:1], pending[1:]))

        def get(ref):
            raise error

        monkeypatch.setattr(ray, "get", get)

    return dies


DEATHS = [
    ray.exceptions.WorkerCrashedError(),
    ray.exceptions.OutOfMemoryError("Task was killed due to the node running low on memory."),
]


@pytest.mark.parametrize("error", DEATHS, ids=lambda e: type(e).__name__)
def test_a_worker_that_dies_on_ray_is_a_worker_that_died(dying_worker, error):
    dying_worker(error)
    with pytest.raises(WorkerDied) as raised:
        run_tournament(Settings(lineup=("beginner", "random"), games=20), jobs=2, backend="ray")
    assert raised.value.__cause__ is error


@pytest.mark.parametrize("error", DEATHS, ids=lambda e: type(e).__name__)
def test_a_worker_that_dies_on_ray_is_told_in_one_line(dying_worker, error, told_a_worker_died):
    """As with the local backend's broken pool (test_cli.py): one line, status 1, in either language."""
    dying_worker(error)
    for language in ("en", "nl"):
        told_a_worker_died("ray", language, rounds=20)


@pytest.mark.parametrize("address", ["nonsense", "127.0.0.1:9", "ray://127.0.0.1:9"])
@pytest.mark.parametrize(("lang", "says"), [("en", "no Ray cluster answers at"), ("nl", "geen Ray-cluster antwoordt op")])
def test_a_ray_address_where_no_cluster_answers_is_told_in_one_line(tmp_path, address, lang, says):
    """A wrong RAY_ADDRESS gave a traceback ("nonsense"), blamed --records ("auto": Ray's
    ConnectionError is an OSError), or waited for many minutes (an address where nothing answers)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANG", "LC_"))}
    env.update(RAY_ADDRESS=address, LANG="C.UTF-8")
    command = [str(Path(sys.executable).parent / "loveletter"), "tournament", "--backend", "ray", "--rounds", "4",
               "--jobs", "1", "--lang", lang]
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"loveletter tournament: --backend ray: {says} RAY_ADDRESS={address!r}"
        + (" (is the address right, and the cluster running?)" if lang == "en"
           else " (klopt het adres, en draait het cluster?)")]
    assert list(tmp_path.iterdir()) == []


RAY_SAYS = ("[2026-12-05 02:35:00,215 W 23226 23226] gcs_client.cc:210: Failed to get cluster ID from GCS server:"
            " Unauthenticated: RPC error: InvalidAuthToken: Authentication token is missing or incorrect\n")


@pytest.fixture
def ray_cluster_joined(monkeypatch):
    """``ray_cluster_joined(init)``: RAY_ADDRESS names an address where something answers (a socket
    listening here), and joining it runs ``init`` in place of Ray's (no instance is started)."""
    import socket

    listening = socket.create_server(("127.0.0.1", 0))
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{listening.getsockname()[1]}")
    monkeypatch.setattr(ray, "is_initialized", lambda: False)

    def join(init):
        monkeypatch.setattr(ray, "init", init)
        return os.environ["RAY_ADDRESS"]

    yield join
    listening.close()


def _refusing_as_ray(**options):
    """As Ray 2.60 refuses a cluster whose authentication token we lack: a line a second from its
    core, straight to the file descriptor, then a ConnectionError that says nothing of the reason."""
    for _ in range(3):
        os.write(2, RAY_SAYS.encode())
    os.write(1, b"a note of Ray's to standard output\n")
    raise ConnectionError("Could not connect to the cluster at the address given.")


@pytest.mark.parametrize(("language", "says"), [
    ("en", "the Ray cluster at RAY_ADDRESS={address!r} would not let this tournament join: {reason} (Ray's words)"),
    ("nl", "het Ray-cluster op RAY_ADDRESS={address!r} liet dit toernooi niet toe: {reason} (de woorden van Ray)")],
    ids=["en", "nl"])
def test_a_ray_cluster_that_refuses_to_let_us_join_is_told_in_one_line_with_rays_reason(
        ray_cluster_joined, capfd, options_for, language, says):
    """A cluster with token authentication, and no token (or a wrong one) here: Ray wrote twenty log
    lines, a line a second, and then we said that no cluster answers there, though it had."""
    from loveletter.cli import tournament as command

    address = ray_cluster_joined(_refusing_as_ray)
    options = options_for(backend="ray", language=language)
    assert command.tournament(options) == 1  # the cluster's doing, not the options' (2)
    out, err = capfd.readouterr()
    reason = "Failed to get cluster ID from GCS server: Unauthenticated: RPC error: InvalidAuthToken: " \
             "Authentication token is missing or incorrect"
    assert out == ""
    assert err == f"loveletter tournament: --backend ray: {says.format(address=address, reason=reason)}\n"


def test_a_missing_token_that_ray_refuses_itself_is_no_traceback(ray_cluster_joined):
    """With RAY_AUTH_MODE=token and no token here, Ray raises its AuthenticationError (not a
    ConnectionError): that was a traceback."""
    def init(**options):
        raise ray.exceptions.AuthenticationError(
            "Token authentication is enabled but no authentication token was found. Ensure that the token"
            " for the cluster is available in a local file (e.g., ~/.ray/auth_token).")

    ray_cluster_joined(init)
    with pytest.raises(TournamentError) as refused:
        run_tournament(Settings(lineup=("beginner", "random"), games=4), jobs=1, backend="ray")
    assert refused.value.key == "ray_refused"
    assert refused.value.params["reason"] == "Token authentication is enabled but no authentication token was found"


def test_a_cluster_without_a_reason_to_tell_is_one_where_none_answers(ray_cluster_joined, capfd):
    """A ConnectionError with no line of Ray's to say why (Ray's "auto" with no cluster running)."""
    def init(**options):
        raise ConnectionError("Could not find any running Ray instance.")

    ray_cluster_joined(init)
    with pytest.raises(TournamentError) as refused:
        run_tournament(Settings(lineup=("beginner", "random"), games=4), jobs=1, backend="ray")
    assert refused.value.key == "ray_unreachable"
    assert capfd.readouterr() == ("", "")


def test_what_ray_says_while_it_joins_a_cluster_is_told_once_it_has_joined(ray_starting, ray_cluster_joined, capfd):
    """Held back while Ray joins (to be told as a reason if it refuses), and not lost if it joins."""
    noted = ray_starting()
    starting = ray.init

    def init(**options):
        os.write(2, b"a warning of Ray's\n")
        starting(**options)

    ray_cluster_joined(init)
    run_tournament(Settings(lineup=("beginner", "random"), games=4), jobs=1, backend="ray")
    assert noted["options"]["address"] == os.environ["RAY_ADDRESS"]
    assert capfd.readouterr() == ("", "a warning of Ray's\n")


@pytest.fixture
def ray_starting(monkeypatch):
    """A Ray that is not running, whose start is faked and noted (with what ``init`` was given, and
    whether a Ctrl-C came meanwhile: ``ray_starting(ctrl_c=True)``); its tasks are played here."""
    noted: dict[str, object] = {"running": False, "shut down": False}

    def start(ctrl_c: bool = False, sigterm: bool = False) -> dict[str, object]:
        def init(**options):
            noted["options"] = options
            # as Ray's start does: a SIGTERM handler of its own (its core's wrote a crash dump)
            signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(signum))
            for stop, sent in ((signal.SIGINT, ctrl_c), (signal.SIGTERM, sigterm)):
                if sent:  # a terminal's Ctrl-C, or a kill, while Ray starts
                    os.kill(os.getpid(), stop)
                    for _ in range(1000):  # (Python hears a signal between two steps of its own)
                        pass
            noted["running"] = True

        def shutdown():
            noted["running"], noted["shut down"] = False, True

        class Task:
            def __init__(self, function):
                self.function = function

            def remote(self, *args):
                return self.function(*args)

        monkeypatch.setattr(ray, "is_initialized", lambda: noted["running"])
        monkeypatch.setattr(ray, "init", init)
        monkeypatch.setattr(ray, "shutdown", shutdown)
        monkeypatch.setattr(ray, "remote", lambda **_: Task)
        monkeypatch.setattr(ray, "wait", lambda pending, num_returns: (pending[:1], pending[1:]))
        monkeypatch.setattr(ray, "get", lambda chunk: chunk)
        return noted

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    return start


def test_a_ctrl_c_while_ray_starts_stops_the_tournament_once_it_has_started(ray_starting):
    """It was ignored while Ray started, and so lost: the tournament played on to the end."""
    noted = ray_starting(ctrl_c=True)
    with pytest.raises(KeyboardInterrupt):
        run_tournament(Settings(lineup=("beginner", "random"), games=20), jobs=2, backend="ray",
                       progress=lambda played: pytest.fail(f"{played} games played after the Ctrl-C"))
    assert noted["shut down"] and not noted["running"]  # no Ray processes left behind
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl-C answered as before


@pytest.mark.parametrize("while_starting", [False, True])
def test_a_kill_stops_a_tournament_on_ray_as_ctrl_c_does(ray_starting, while_starting):
    """Ray's start set SIGTERM handlers of its own: a kill then ended the tournament with status 15
    and not a word (while Ray started), or with Ray's crash dump and status 1 (once it ran), not as
    the README says ("interrupted", status 143, the records so far kept)."""
    noted = ray_starting(sigterm=while_starting)
    played: list[int] = []
    before = signal.getsignal(signal.SIGTERM)

    def progress(count: int) -> None:
        played.append(count)
        if not while_starting and len(played) == 1:
            os.kill(os.getpid(), signal.SIGTERM)

    with pytest.raises(KeyboardInterrupt), stops_heard_as_ctrl_c() as heard:
        run_tournament(Settings(lineup=("beginner", "random"), games=20), jobs=2, backend="ray", progress=progress)
    assert heard == [signal.SIGTERM] and noted["shut down"] and not noted["running"]
    assert len(played) <= 2 and (played == []) == while_starting  # stopped at once, once Ray had started
    assert signal.getsignal(signal.SIGTERM) is before  # (Ray's own handler not left behind either)


def test_ray_is_started_with_no_more_cpus_than_tasks(ray_starting):
    """--jobs 100000000000001 gave a traceback from Ray (at most 10^14 CPUs)."""
    noted = ray_starting()
    settings = Settings(lineup=("beginner", "random"), games=20)
    results = run_tournament(settings, jobs=100_000_000_000_001, backend="ray")
    assert noted["options"]["num_cpus"] == len(chunks(20)) == 20  # type: ignore[index]
    # a new instance of our own, even where `ray start` left a cluster (it refuses num_cpus)
    assert noted["options"]["address"] == "local"  # type: ignore[index]
    assert len(results.games) == 20 and noted["shut down"]
    run_tournament(settings, jobs=2, backend="ray")
    assert noted["options"]["num_cpus"] == 2  # type: ignore[index]
