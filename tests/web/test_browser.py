"""End to end in a real browser: Playwright driving Debian's Chromium (``python3 dev.py test`` installs
it; browsers are never downloaded) against ``loveletter serve`` started as its own process.

With LOVELETTER_SCREENSHOTS=1 the tests also save the screenshots shown in the README (docs/).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from loveletter.engine import CLASSIC, Action, Card
from loveletter.i18n import Translator
from loveletter.web.messages import card_face, move_entry
from loveletter.web.process import free_port, start_server, stop_server
from loveletter.web.replays import MAX_RECORD_BYTES

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCREENSHOTS = bool(os.environ.get("LOVELETTER_SCREENSHOTS"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    process = start_server(port, str(tmp_path_factory.mktemp("web") / "web.sqlite3"), bot_delay=0.05)
    yield f"http://127.0.0.1:{port}/"
    stop_server(process)


@pytest.fixture(scope="module")
def browser():
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is needed: python3 dev.py test installs it (apt-get install chromium)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield launched
        launched.close()


def new_page(browser: Browser, url: str, phone: bool = False, narrow: bool = False, csp: bool = False,
             touch: bool = False) -> Page:
    """A page at ``url``: on a desktop screen, a phone's (``phone``), or the narrowest phone's, 320
    pixels wide (``narrow``); with ``touch``, a touch screen's (CSS's ``pointer: coarse``). The page's
    Content-Security-Policy is kept only with ``csp``: it forbids evaluating strings, which
    Playwright's ``wait_for_function`` does while it waits
    (:func:`test_the_page_plays_under_its_own_content_security_policy` plays with it kept)."""
    size = ({"width": 320, "height": 640} if narrow else {"width": 390, "height": 844} if phone
            else {"width": 1280, "height": 900})
    context = browser.new_context(viewport=size, locale="en-GB", bypass_csp=not csp, has_touch=touch, is_mobile=touch)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    return page


def create_table(page: Page, name: str, seats: dict[int, str], players: int = 2, target: int | None = None) -> str:
    page.fill("#name", name)
    page.select_option("#players", str(players))
    for seat in range(1, players):
        page.select_option(f"select[name=seat{seat}]", seats.get(seat, ""))
    if target:
        page.fill("input[name=target]", str(target))
    page.click("#create-button")
    page.wait_for_url(re.compile(r"#/t/[A-Z0-9]+$"))
    page.wait_for_selector("#main[data-moves]")
    return page.url.rsplit("/", 1)[1]


def table_on_the_tests_clock(browser: Browser, server: str, shown: str = ".your-turn") -> Page:
    """A page whose clock the test moves on (``page.clock``), at a new table of Ann's against a random
    bot, once ``shown`` shows."""
    page = new_page(browser, server)
    page.clock.install()
    page.reload()
    create_table(page, "Ann", {1: "random"}, target=7)
    page.wait_for_selector(shown)
    return page


def moves_shown(page: Page) -> int:
    return int(page.locator("#main").get_attribute("data-moves") or -1)


def play_one_move(page: Page, keyboard: bool = False) -> None:
    """Click (or, with ``keyboard``, tab and press Enter through) a card, then a player and a guess
    if asked, until the move is made. The Princess only when no other card may be played: a test
    that needs the match to go on must not lose rounds by its own hand."""
    before = moves_shown(page)
    playable = page.locator(".card-button:not([disabled])")
    others = playable.filter(has_not=page.locator(".card-princess"))
    card = others.first if others.count() else playable.first
    if keyboard:
        card.focus()
        page.keyboard.press("Enter")
    else:
        card.click()
    deadline = time.monotonic() + 15
    while moves_shown(page) == before:
        assert time.monotonic() < deadline, "the move was not made"
        choice = page.locator(".picking button.target, .picking button.guess").first
        with contextlib.suppress(PlaywrightTimeout):  # the page may redraw under us: then look again
            choice.click(timeout=500)


def play_a_rematch(page: Page) -> None:
    """At a finished match: ask for the rematch and wait until the new table is shown."""
    code = page.url.rsplit("/", 1)[1]
    page.click("#rematch")
    page.wait_for_url(re.compile(rf"#/t/(?!{code}$)[A-Z0-9]+$"))  # a new table
    page.wait_for_selector(".status .result", state="detached")


def test_two_people_create_join_and_play_a_round_by_clicking(server, browser):
    ann = new_page(browser, server)
    if SCREENSHOTS:
        ann.screenshot(path=str(DOCS / "lobby.png"), full_page=True)
    code = create_table(ann, "Ann", {1: ""})
    assert ann.locator("#invite").is_visible()
    bob = new_page(browser, f"{server}#/t/{code}")
    bob.fill("#join input[name=name]", "Bob")
    bob.click("#join button[type=submit]")
    for page in (ann, bob):
        page.wait_for_selector(".hand .card")
    bob.reload()  # a reload returns Bob to his seat
    bob.wait_for_selector(".hand .card")
    assert bob.locator(".spectating").count() == 0
    assert bob.locator(".player h3").nth(1).inner_text().startswith("Bob — you")  # (a bot's name has brackets)
    deadline = time.monotonic() + 120
    while ann.locator("#main").get_attribute("data-round") == "1":
        assert time.monotonic() < deadline, "the round did not end"
        mover = ann if ann.locator(".your-turn").count() else bob if bob.locator(".your-turn").count() else None
        if mover is None:
            ann.wait_for_timeout(30)
            continue
        other = bob if mover is ann else ann
        play_one_move(mover)
        done = moves_shown(mover)
        other.wait_for_function(f"Number(document.querySelector('#main').dataset.moves) >= {done}")
    for page in (ann, bob):
        page.wait_for_selector(".previous .result")
        assert "Round won by" in page.locator(".previous .result").inner_text()
    if SCREENSHOTS:  # the table of whoever starts the second round: two cards in hand, a choice to make
        while not (starter := next((page for page in (ann, bob) if page.locator(".your-turn").count()), None)):
            assert time.monotonic() < deadline, "the second round did not start"
            ann.wait_for_timeout(30)
        starter.screenshot(path=str(DOCS / "table.png"), full_page=True)


def test_the_lobby_lists_an_open_table_with_its_edition_and_bots(server, browser):
    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {1: "expert", 2: ""}, players=3)
    visitor = new_page(browser, server)
    entry = visitor.locator("#open-tables li", has_text=code)
    assert entry.inner_text().startswith(f"{code} · classic edition · Ann, Bot 1 (expert), Free seat 2")  # (not "—")
    # in a screen reader's list of links, each table's link says which table it joins
    assert entry.get_by_role("link", name=f"Join table {code}", exact=True).count() == 1


def test_the_lobbys_open_tables_are_asked_for_again_and_a_focused_link_keeps_the_focus(server, browser):
    """A table made while the lobby was shown appeared only after a reload; asked for again now and
    then, the list is brought up to date in place, so the Join link a keyboard is on keeps the focus,
    a table listed before it gone too (its node was then made anew, and the focus lost)."""
    context = browser.new_context()
    visitor = context.new_page()
    visitor.set_default_timeout(15_000)
    visitor.clock.install()
    visitor.goto(server)
    visitor.wait_for_selector("#open-tables li")
    ann = new_page(browser, server)
    first = create_table(ann, "Ann", {1: "", 2: ""}, players=3)
    visitor.clock.run_for(11_000)
    visitor.wait_for_selector(f"#open-tables li:has-text('{first}')")
    visitor.focus(f"#open-tables a[aria-label='Join table {first}']")
    bob = new_page(browser, server)
    second = create_table(bob, "Bob", {1: "", 2: ""}, players=3)
    visitor.clock.run_for(11_000)
    visitor.wait_for_selector(f"#open-tables li:has-text('{second}')")
    assert visitor.evaluate("document.activeElement.getAttribute('aria-label')") == f"Join table {first}"
    visitor.focus(f"#open-tables a[aria-label='Join table {second}']")
    joiners = []

    def filled(code: str, names: tuple[str, str]) -> None:  # the table full, and gone from the visitor's list
        for name in names:
            joiner = new_page(browser, f"{server}#/t/{code}")
            joiner.fill("#join input[name=name]", name)
            joiner.click("#join button[type=submit]")
            joiner.wait_for_selector(".hand")
            joiners.append(joiner)
        visitor.clock.run_for(11_000)
        visitor.locator(f"#open-tables li:has-text('{code}')").wait_for(state="detached")

    filled(first, ("Cas", "Dee"))  # Ann's table, listed before Bob's
    assert visitor.evaluate("document.activeElement.getAttribute('aria-label')") == f"Join table {second}"
    filled(second, ("Eve", "Fay"))  # Bob's, whose link has the focus: on to the next listed, else the last, else the heading
    assert visitor.evaluate("""(gone) => document.activeElement.closest('#open-tables li a, #open-tables-title') !== null
      && document.activeElement.getAttribute('aria-label') !== gone""", f"Join table {second}")
    for page in (ann, bob, *joiners):
        page.close()
    context.close()


def test_a_redraw_keeps_a_node_drawn_again_when_those_before_it_change(server, browser):
    """morph() keeps the live node of what is drawn again (the focus stays on it), where a keyed node
    or one without a key before it went, or a new one came before it: each was rebuilt."""
    page = new_page(browser, server)
    page.wait_for_selector("#create")
    kept = page.evaluate("""() => {
      const made = (html) => { const box = document.createElement("div"); box.innerHTML = html; return box; };
      return [
        ['<li data-key="a">a</li><li data-key="b">b <a>x</a></li>', '<li data-key="b">b <a>x</a></li>'],
        ['<p>none</p><li data-key="b">b</li>', '<li data-key="b">b</li>'],
        ['hello<button id="x">x</button>', '<button id="x">x</button>'],
        ['<p>r</p><button data-key="c">c</button><a>x</a><a>y</a>', '<button data-key="c">c</button><a>x</a><a>y</a>'],
        ['<li data-key="b">b</li>', '<li data-key="n">n</li><li data-key="b">b</li>'],
        ['<ul id="u"><li data-key="1">1</li><li data-key="2"><a>2</a></li></ul>', '<ul id="u"><li data-key="2"><a>2</a></li></ul>'],
      ].map(([before, after]) => {
        const live = made(before);
        const watched = live.querySelector("[data-key=b], #x, [data-key=c], [data-key='2']");  // (the one drawn again)
        morph(live, made(after));
        return live.innerHTML === after && live.contains(watched);
      });
    }""")
    assert kept == [True] * 6
    page.context.close()


def test_the_stand_ins_level_is_chosen_with_a_time_or_without(server, browser):
    """At a table with no time a bot plays a move for someone away or not moving when a player asks:
    its level is chosen there too (the select was off without a time, and the server refused a level
    with none, though a beginner then played when asked)."""
    ann = new_page(browser, server)
    stand_in = ann.locator("#stand-in")
    assert stand_in.is_enabled()
    ann.select_option("#stand-in", "expert")
    ann.fill("#name", "Ann")
    with ann.expect_request(lambda request: request.method == "POST" and "/api/tables" in request.url) as sent:
        ann.click("#create-button")
    body = json.loads(sent.value.post_data or "{}")
    assert body["bot_timeout"] is None and body["stand_in"] == "expert"
    ann.wait_for_url(re.compile(r"#/t/[A-Z0-9]+$"))
    ann.wait_for_selector(".stand-in-rule:has-text('A bot (expert) plays a move for someone away for 30 s')")
    bob = new_page(browser, server)
    bob.fill("#name", "Bob")
    bob.fill("input[name=timeout]", "45")
    bob.select_option("#stand-in", "expert")
    with bob.expect_request(lambda request: request.method == "POST" and "/api/tables" in request.url) as sent:
        bob.click("#create-button")
    body = json.loads(sent.value.post_data or "{}")
    assert body["bot_timeout"] == 45 and body["stand_in"] == "expert"
    bob.wait_for_url(re.compile(r"#/t/[A-Z0-9]+$"))  # the server took it


def test_a_name_is_counted_in_characters_as_a_reader_sees_them(server, browser):
    """The page counts a name as the server does: 24 emoji families are 24 characters (the input's
    maxlength counted them as 192 UTF-16 units and cut them), 25 letters are one too many."""
    ann = new_page(browser, server)
    ann.fill("#name", "x" * 25)
    assert ann.eval_on_selector("#name", "input => input.validationMessage") == "A name has at most 24 characters."
    def refused_then_checked(page: Page, field: str, button: str) -> None:
        """A name the server refused, then one the page's own check refuses: the server's refusal goes,
        the field's check says why (both stood, the alert about the name no longer typed)."""
        page.fill(field, "Bot 1 (expert)")
        page.click(button)
        page.wait_for_selector("#alert:has-text('would pass for one of the bots')")
        page.fill(field, "x" * 25)
        page.click(button)
        page.wait_for_selector("#alert", state="hidden")

    refused_then_checked(ann, "#name", "#create-button")
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    code = create_table(ann, family * 24, {}, players=2)
    assert ann.locator(".player h3").first.inner_text().startswith(family * 24)
    # the same at a table's own join form
    refused_then_checked(new_page(browser, f"{server}#/t/{code}"), "#join input", "#join button")


def test_the_lobbys_form_checks_speak_the_pages_language(server, browser):
    """The browser's own messages for a field's checks speak the browser's language: on the Dutch
    page Chromium said "Value must be less than or equal to 20." and "Please fill out this field."."""
    ann = new_page(browser, server)
    ann.fill("input[name=target]", "50")  # typed on the English page, then the page turns Dutch
    ann.click("#lang")
    ann.wait_for_selector("#create h2:has-text('Nieuwe tafel')")
    said = "input => input.validationMessage"
    assert ann.eval_on_selector("input[name=target]", said) == "Geef een getal van 1 tot en met 20."
    ann.fill("input[name=timeout]", "0")
    assert ann.eval_on_selector("input[name=timeout]", said) == "Geef een getal van 1 tot en met 3\u2009600."
    ann.fill("input[name=timeout]", "2.5")
    assert ann.eval_on_selector("input[name=timeout]", said) == "Geef een geheel getal."
    assert ann.eval_on_selector("#name", said) == "Geef een naam op."  # (nothing typed yet)
    assert ann.eval_on_selector("#code", said) == "Vul dit veld in."
    assert ann.eval_on_selector("#record-file", said) == "Kies een bestand."
    ann.fill("input[name=target]", "3")
    assert ann.eval_on_selector("input[name=target]", said) == ""  # right now: no message left over


def test_a_server_out_of_reach_is_said_so_in_the_lobby_and_the_language_stays(server, browser):
    """With the server out of reach, the lobby's buttons did nothing without a word, and a language
    click left the page in English while it asked the server in Dutch."""
    ann = new_page(browser, server)
    ann.wait_for_selector("#create h2:has-text('New table')")
    ann.route("**/api/**", lambda route: route.abort())
    ann.evaluate("ASK_AGAIN_AFTER = []")  # (a Create asked again by the page would make a table once in reach)
    ann.fill("#name", "Ann")
    ann.click("#create-button")
    ann.wait_for_selector("#alert:has-text('The server cannot be reached: try again in a moment.')")
    ann.evaluate("() => { for (const _ of [1, 2]) document.getElementById('lang').click(); }")  # twice, at once
    ann.wait_for_timeout(300)
    assert ann.locator("#create h2").inner_text() == "New table"
    assert ann.evaluate("[lang, localStorage.getItem('ll-lang')]") == ["en", "en"]
    ann.unroute("**/api/**")
    ann.route("**/api/**", lambda route: route.fulfill(status=502, content_type="text/html", body="<h1>Bad gateway</h1>"))
    ann.evaluate("alertUser('')")
    ann.click("#create-button")  # a proxy's error page, the server behind it down: no JSON
    ann.wait_for_selector("#alert:has-text('The server cannot be reached')")
    ann.unroute("**/api/**")
    ann.evaluate("listOpenTables(document.getElementById('open-tables'))")  # as the lobby's next look does
    assert ann.locator("#alert").inner_text() == ""  # (no longer true: not left up)
    ann.click("#lang")  # one click, back in reach: Dutch
    ann.wait_for_selector("#create h2:has-text('Nieuwe tafel')")
    ann.close()
    bob = browser.new_context(locale="nl-NL").new_page()  # out of reach before the page had its words
    bob.route("**/api/**", lambda route: route.abort())
    bob.goto(server)
    bob.wait_for_selector("#alert:has-text('De server is niet bereikbaar: probeer het zo opnieuw.')")  # (was its key)
    bob.context.close()


def test_a_server_that_never_answers_is_said_out_of_reach(server, browser):
    """A network that drops its packets answers nothing: a click on Create, and the lobby's list,
    waited for ever without a word (a refused connection was said at once)."""
    ann = new_page(browser, server)
    ann.wait_for_selector("#create h2:has-text('New table')")
    held = []  # (never answered)
    ann.route("**/api/tables*", lambda route: held.append(route.request.method))
    ann.evaluate("REACH_WITHIN = 500; ASK_AGAIN_AFTER = []")
    ann.fill("#name", "Ann")
    ann.click("#create-button")
    ann.wait_for_selector("#alert:has-text('The server cannot be reached: try again in a moment.')")
    ann.evaluate("alertUser('')")
    ann.evaluate("listOpenTables(document.getElementById('open-tables'))")  # as the lobby's next look does
    ann.wait_for_selector("#alert:has-text('The server cannot be reached')")
    assert held.count("POST") == 1 and "GET" in held and ann.url.endswith("/")  # (no table entered)
    ann.close()


def test_a_request_asked_again_says_so_until_it_is_answered(server, browser):
    """A Create whose answer was lost: the alert said "try again in a moment" (the page was asking
    again by itself), the lobby's list answering put it away, the next try that failed read it out
    again, time after time; and a second Enter meanwhile did nothing, unsaid."""
    ann = new_page(browser, server)
    ann.wait_for_selector("#create h2:has-text('New table')")
    ann.route("**/api/tables?*", lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    ann.evaluate("ASK_AGAIN_AFTER = [60000]")
    ann.fill("#name", "Ann")
    ann.click("#create-button")
    asking = "The server cannot be reached: asking it again…"
    ann.wait_for_selector(f"#alert:has-text('{asking}')")
    ann.evaluate("listOpenTables(document.getElementById('open-tables'))")  # the list answers meanwhile
    assert ann.locator("#alert").inner_text() == asking  # (not put away, to be read out again)
    ann.route("**/api/tables", lambda route: route.abort())  # (the list's address: no query)
    ann.evaluate("listOpenTables(document.getElementById('open-tables'))")  # ... or fails meanwhile
    assert ann.locator("#alert").inner_text() == asking  # (not "try again in a moment" over it)
    ann.click("#create-button")
    ann.wait_for_selector("#announce:has-text(\"Still waiting for the server's answer…\")")
    ann.close()


def test_a_join_whose_answer_was_lost_is_given_the_same_seat_when_asked_again(server, browser):
    """The answer to Bob's join lost on its way back, after the server had seated him: asked again, he
    was told someone was already called Bob, and his seat was nobody's (and, the table full, the join
    form gone). The page asks again by itself, with the same key, and the server gives the answer it
    gave."""
    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {}, players=2)  # (seat 1 free)
    bob = new_page(browser, f"{server}#/t/{code}")
    bob.wait_for_selector("#join input")
    keys = []

    def lost(route):  # the server acts, and its answer never comes back
        keys.append(route.request.headers.get("request-key"))
        route.fetch()
        route.abort()

    def answered(route):
        keys.append(route.request.headers.get("request-key"))
        route.continue_()

    bob.route("**/api/tables/*/join*", lambda route: (lost if not keys else answered)(route))
    bob.fill("#join input", "Bob")
    bob.click("#join button")
    bob.wait_for_function("state && state.seat === 1")  # asked again a second later
    assert bob.locator("#alert").inner_text() == ""
    assert len(keys) == 2 and keys[0] == keys[1] and re.fullmatch("[0-9a-f]{32}", keys[0])
    ann.wait_for_function("state && !state.free_seats.length")  # the table full: Bob's, held by Bob
    for page in (ann, bob):
        page.close()


def test_a_connection_gone_silent_is_found_out_and_a_move_lost_on_it_is_said(server, browser):
    """A connection that drops its packets, closing nothing: the page showed the table as current
    and "Your turn", a move tapped went nowhere, and nothing was said. Its ping, or the move, is not
    answered: the page connects again, and says the move did not reach the table."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, players=2)
    page.wait_for_selector(".your-turn")
    moves = moves_shown(page)
    page.evaluate("""() => {
      PING_EVERY = 300; ANSWER_WITHIN = 600;
      window.silent = socket;
      socket.send = () => {};  // nothing the page sends arrives
      send(state.legal[0].move);
    }""")
    page.wait_for_function("socket && socket !== window.silent && socket.readyState === WebSocket.OPEN")
    page.wait_for_selector("#alert:has-text('Your last move did not reach the table: play it again.')")
    assert moves_shown(page) == moves and page.locator(".your-turn").count() == 1
    assert page.evaluate("window.silent.readyState") in (2, 3)  # (closing or closed: put aside)
    play_one_move(page)  # and the page plays on
    page.close()


def test_a_spectator_sees_no_hidden_card_and_the_language_switches(server, browser):
    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {1: "beginner", 2: "random"}, players=3)
    frames: list[dict] = []
    watcher = new_page(browser, server)
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(json.loads(data))))
    watcher.goto(f"{server}#/t/{code}")
    watcher.wait_for_selector(".spectating")
    ann.wait_for_selector(".your-turn")
    play_one_move(ann)
    watcher.wait_for_function(f"Number(document.querySelector('#main').dataset.moves) >= {moves_shown(ann)}")
    assert watcher.locator(".spectating").is_visible()
    assert watcher.locator(".hand").count() == 0 and watcher.locator(".card-button").count() == 0  # no hand shown
    # with no hand, the side's panels share the page's width (a third of it stood empty); measured
    # in one go in the page, which redraws itself whenever a bot moves
    reach, width = watcher.evaluate("""() => {
        const main = document.querySelector('#main').getBoundingClientRect();
        const right = Math.max(...[...document.querySelectorAll('.side > section')]
            .map((panel) => panel.getBoundingClientRect().right));
        return [right - main.left, main.width];
    }""")
    assert reach > 0.9 * width
    states = [f for f in frames if f.get("type") == "state"]
    assert states and all(f["hand"] == [] and f["known"] == {} and f["legal"] == [] for f in states)
    # the cards not yet seen: by the player; by a spectator, who saw no hand, those not shown face up
    assert ann.locator(".tracker h2").inner_text() == "Unseen cards"
    assert watcher.locator(".tracker h2").inner_text() == "Cards not shown yet"
    watcher.click("#lang")
    watcher.wait_for_selector("text=Je kijkt mee")
    assert watcher.locator(".tracker h2").inner_text() == "Nog niet getoonde kaarten"
    assert watcher.locator("#lang").inner_text() == "English"


def test_a_person_invited_to_a_table_full_of_spectators_takes_its_free_seat(server, browser):
    """A streamer's table, its link shown on stream before a friend sat down: once a hundred viewers
    watched, the friend's page said only that the spectators were too many, with no way to sit down."""
    from websockets.sync.client import connect

    from loveletter.web.app import WATCHERS

    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {1: ""})
    address = server.replace("http://", "ws://") + f"ws/{code}"
    with contextlib.ExitStack() as watching:
        for _ in range(WATCHERS):
            watcher = watching.enter_context(connect(address))
            watcher.send(json.dumps({"type": "hello", "secret": None, "lang": "en"}))
            assert json.loads(watcher.recv(10))["type"] == "state"
        bob = new_page(browser, f"{server}#/t/{code}")
        bob.wait_for_selector("#alert:has-text('this page tries again every 30 seconds')")
        assert bob.locator("#seat-title").inner_text() == "A seat is free at this table: take it here"
        bob.fill("#join input[name=name]", "Bo")
        bob.focus("#join input[name=name]")
        bob.evaluate(f"connect('{code}')")  # (as the page asks again 30 s later: refused again)
        bob.wait_for_function("socket.readyState === WebSocket.CLOSED")
        assert bob.evaluate("document.activeElement.name") == "name"  # the form kept, the name typed too
        assert bob.input_value("#join input[name=name]") == "Bo"
        bob.click("#lang")  # in Dutch: made again in Dutch, the name kept
        bob.wait_for_selector("#seat-title:has-text('Er is een stoel vrij')")
        assert bob.input_value("#join input[name=name]") == "Bo"
        bob.fill("#join input[name=name]", "Bob")
        bob.click("#join button[type=submit]")
        bob.wait_for_selector("#main .hand")  # seated: the game begins, and Bob holds a card
        assert bob.locator(".spectating").count() == 0


def test_a_table_with_a_bot_plays_to_the_end_on_a_phone_with_the_keyboard(server, browser):
    ann = new_page(browser, server, phone=True)
    create_table(ann, "Ann", {1: "beginner"}, target=1)
    while True:
        ann.wait_for_selector(".your-turn, .status .result")
        if ann.locator(".status .result").count():
            break
        play_one_move(ann, keyboard=True)
    # (a full tie, the same card and discard total, is won by both)
    winner = re.search(r"Match won by (Ann|Bot 1 \(beginner\)|Ann and Bot 1 \(beginner\))!",
                       ann.locator(".status .result").inner_text())
    assert winner
    assert ann.evaluate("document.activeElement.id") == "rematch"  # the keyboard goes on from there
    # a match of one token: its one round is the last round shown, whole, with its result
    assert ann.locator(".previous .result").inner_text() == f"Round won by {winner[1]}"
    assert ann.locator(".previous h2").inner_text() == "The final round"  # (not "the last", in Dutch "the previous")
    assert ann.locator(".previous li").first.inner_text().startswith("Round 1:") and ann.locator(".log").count() == 0
    code = ann.url.rsplit("/", 1)[1]
    other_tab = ann.context.new_page()  # Ann's, at the same finished table
    other_tab.goto(ann.url)
    other_tab.wait_for_selector("#rematch:has-text('Rematch')")
    ann.click("#rematch")  # a new match at a new table, the same bot, Ann in her seat
    ann.wait_for_url(lambda url: re.search(r"#/t/[A-Z0-9]+$", url) is not None and not url.endswith(code))
    ann.wait_for_selector(".hand .card")
    assert ann.locator(".player h3").first.inner_text().startswith("Ann — you")
    rematch = ann.url
    # the other tab's button leads to her seat too (it offered to join, which was refused as twice)
    other_tab.click("#rematch:has-text('Go to the rematch')")
    other_tab.wait_for_url(rematch)
    other_tab.wait_for_selector(".hand .card")
    other_tab.close()
    ann.goto(f"{server}#/t/{code}")  # back at the finished table, the button leads to her new seat
    ann.click("#rematch:has-text('Go to the rematch')")
    ann.wait_for_url(rematch)
    ann.wait_for_selector(".hand .card")
    assert ann.locator(".player h3").first.inner_text().startswith("Ann — you")


def layout_faults(page: Page) -> list[str]:
    """What is wrong with the page's layout: it scrolls sideways, shows text smaller than 12px, or
    draws one control over another."""
    return page.evaluate("""() => {
      const faults = [];
      const root = document.documentElement;
      if (root.scrollWidth > root.clientWidth)
        faults.push(`the page scrolls sideways: ${root.scrollWidth}px in ${root.clientWidth}px`);
      const controls = [...document.querySelectorAll("button, a, input, select")]
        .filter((node) => !node.closest(".visually-hidden") && node.getClientRects().length);
      const boxes = controls.map((node) => [...node.getClientRects()]);
      const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      controls.forEach((one, i) => controls.slice(i + 1).forEach((other, j) => {
        if (one.contains(other) || other.contains(one)) return;
        if (boxes[i].some((a) => boxes[i + 1 + j].some((b) => !apart(a, b))))
          faults.push(`"${one.textContent.trim()}" and "${other.textContent.trim()}" overlap`);
      }));
      for (const node of document.querySelectorAll("body *")) {
        if (node.closest(".visually-hidden") || !node.getClientRects().length) continue;
        const text = [...node.childNodes].some((child) => child.nodeType === 3 && child.textContent.trim());
        const size = parseFloat(getComputedStyle(node).fontSize);
        if (text && size < 12) faults.push(`text of ${size}px: ${node.textContent.trim()}`);
      }
      return faults;
    }""")


def piles_not_lists(page: Page) -> list[str]:
    """The rows of cards (discards, face-up cards, a replay's hands) that a screen reader would not
    hear as lists: each must be a list of one item per card, with a name."""
    return page.evaluate("""() => [...document.querySelectorAll(".pile, .discards, .face-up .card, .player .card")]
      .map((node) => node.classList.contains("card") ? node.closest(".pile") ? null : node : node)
      .filter((node) => node && !(node.tagName === "UL" && [...node.children].every((item) => item.tagName === "LI")
        && (node.getAttribute("aria-label") || document.getElementById(node.getAttribute("aria-labelledby")))))
      .map((node) => node.outerHTML.slice(0, 80))""")


def test_on_the_narrowest_phone_the_page_fits_and_reads_as_headings_and_lists(server, browser):
    ann = new_page(browser, server, narrow=True)
    ann.wait_for_selector("#create-button")
    assert layout_faults(ann) == []
    name = "WOUTERVANDERWOUDEWOUTERS"  # the longest name, in wide capitals, with no space to wrap at
    create_table(ann, name, {1: "random"}, target=1)
    # each card in the hand shows its own character's emblem, drawn (the art has loaded)
    ann.wait_for_function("""() => {
      const cards = [...document.querySelectorAll(".hand .card")];
      return cards.length > 0 && cards.every((card) => {
        const art = card.querySelector("svg.art use");
        const word = [...card.classList].find((name) => name.startsWith("card-")).slice(5);
        return art && art.getAttribute("href").endsWith(`#art-${word}`) && art.getBBox().width > 0;
      });
    }""")
    ann.wait_for_selector(".your-turn")
    ann.check("#hints-toggle")  # the hints too: a figure kept whole must not push the page wider
    ann.wait_for_selector("#hint-list li .figure")
    assert layout_faults(ann) == []
    turns = 0
    while True:
        ann.wait_for_selector(".your-turn, .status .result")
        # the status panel is a region named by its heading, as the others are
        assert ann.get_by_role("region", name="The game now").locator(".your-turn, .result").count() == 1
        assert layout_faults(ann) == [] and piles_not_lists(ann) == []
        if ann.locator(".status .result").count():
            break
        assert ann.locator(".face-up li .card").count() == 3  # two players: three cards face up
        play_one_move(ann)
        turns += 1
    assert turns and ann.locator(".discards li .card").count() >= turns
    ann.click("#lang")  # the Dutch words are longer
    ann.wait_for_selector("#replay-link:has-text('Herhaling')")
    assert layout_faults(ann) == []
    ann.click("#lang")
    ann.wait_for_selector("#replay-link:has-text('Replay')")
    ann.click("#replay-link")
    ann.wait_for_selector("#replay-step")
    assert ann.get_by_role("list", name=f"{name}'s hand").locator("li .card").count() >= 1  # the deal
    steps = int(re.search(r"of (\d+)", ann.locator("#replay-step").inner_text())[1])
    for step in range(2, min(steps, 5) + 1):  # a replay's hands and discards too
        assert layout_faults(ann) == [] and piles_not_lists(ann) == []
        ann.keyboard.press("ArrowRight")
        ann.wait_for_selector(f"#replay-step:has-text('Step {step} of')")


def test_on_a_touch_phone_the_lobby_has_a_fingers_room_its_refusals_show_and_large_text_fits(server, browser):
    """On a phone the lobby is one column: a refusal of the code typed 600 pixels down showed only at
    the page's top, out of sight, and the tap seemed to do nothing. Buttons were 35 pixels tall and
    the fields about 20 (a finger needs 44); and with the text made twice as large, the fields' text
    stayed small and the header's language button ran off the page."""
    page = new_page(browser, server, phone=True, touch=True)
    page.wait_for_selector("#create-button")
    # (a box by its label, where a finger taps it; the title's link home too)
    small = page.evaluate("""() => [...document.querySelectorAll("button, .button, select, input, header a")]
      .filter((node) => node.getClientRects().length && !node.closest(".visually-hidden") && node.type !== "file")
      .map((node) => node.type === "checkbox" ? node.closest("label") : node)
      .map((node) => [node.id || node.name || node.textContent.trim(), node.getBoundingClientRect().height])
      .filter(([, height]) => height < 44)""")
    assert small == []
    page.fill("#code", "QQQQQQ")
    page.tap("#join-code button[type=submit]")
    page.wait_for_selector("#alert:has-text('There is no table with this code')")
    box = page.evaluate("(() => { const r = document.getElementById('alert').getBoundingClientRect(); "
                        "return [r.top, r.bottom, innerHeight, scrollY]; })()")
    assert box[3] > 300 and box[0] >= 0 and box[1] <= box[2], box  # scrolled down to the field, and in sight
    page.tap("#alert")  # put away by a tap: it would stay over what is under it
    page.wait_for_selector("#alert", state="hidden")
    # ... while it says the same (every state, every try to connect again, says it anew)
    page.evaluate("alertUser('There is no table with this code.')")
    assert page.locator("#alert").is_hidden()
    page.evaluate("alertUser('Something else.')")
    assert page.locator("#alert").is_visible()
    # and what takes the focus is scrolled into sight below it, not under it; Escape puts it away too
    assert page.evaluate("parseFloat(document.documentElement.style.scrollPaddingTop)") \
        == page.locator("#alert").bounding_box()["height"]
    page.keyboard.press("Escape")
    page.wait_for_selector("#alert", state="hidden")
    assert page.evaluate("document.documentElement.style.scrollPaddingTop") == ""
    # an alert long enough to scroll is a stop for Tab: put away with Escape while it had the focus,
    # the focus fell to the page itself (now: the first heading of what the page shows)
    page.evaluate("alertUser('A long reason. '.repeat(80)); document.getElementById('alert').tabIndex = 0;"
                  " document.getElementById('alert').focus()")
    page.keyboard.press("Escape")
    page.wait_for_selector("#alert", state="hidden")
    assert page.evaluate("document.activeElement.id") == "create-title"
    narrow = new_page(browser, server, narrow=True)
    narrow.wait_for_selector("#create-button")
    narrow.add_style_tag(content="html { font-size: 200%; }")
    for lang in ("en", "nl"):  # (the Dutch words are longer)
        sizes = narrow.evaluate("""() => {
          const root = document.documentElement;
          const language = document.createRange();  // the language button's word, on as many lines
          language.selectNodeContents(document.getElementById("lang"));
          return [root.scrollWidth - root.clientWidth, parseFloat(getComputedStyle(document.getElementById("name")).fontSize),
                  parseFloat(getComputedStyle(document.querySelector("label")).fontSize), language.getClientRects().length];
        }""")
        # the header wraps, its language button under the title, rather than break the button's word
        assert sizes[0] <= 0 and sizes[1] == sizes[2] == 32 and sizes[3] == 1, (lang, sizes)
        # an alert, its text twice as large, over a fifth of the screen at most (it took half)
        narrow.evaluate("alertUser(w('web_server_stopped') + ' ' + w('web_move_not_sent'))")
        assert narrow.evaluate("document.getElementById('alert').getBoundingClientRect().height") <= 640 / 5 + 1
        narrow.evaluate("alertUser('')")
        narrow.click("#lang")
        narrow.wait_for_selector("#create-button:has-text('Tafel maken')" if lang == "en" else "#create-button:has-text('Create')")


def test_on_a_phone_a_long_name_to_choose_fits_a_log_follows_a_turned_phone_and_a_move_not_sent_is_said(server, browser):
    """A player's button to choose them, named with 24 letters and no space, widened the page on a 320
    pixel phone. Turned on its side, a phone's log (then narrower) was short of its newest line, taken
    as scrolled back, and stopped following. A move tapped while the connection was lost did nothing,
    unsaid."""
    page = new_page(browser, server, narrow=True, touch=True)
    create_table(page, "Ann", {1: "random"}, players=2, target=7)
    page.wait_for_selector(".your-turn")
    page.evaluate("""() => {
      state = {...state, names: state.names.map((name, seat) => seat === state.seat ? name : "W".repeat(24))};
      picking = {card: state.hand[0], moves: [{target: 1 - state.seat, move: 0}, {target: state.seat, move: 1}], index: 0};
      render();
    }""")
    assert page.locator(".picking button.target").first.inner_text().replace("\n", "") == "W" * 24
    assert layout_faults(page) == []
    page.evaluate("cancelPicking()")
    page.set_viewport_size({"width": 640, "height": 360})  # (one column still: the log 574 pixels wide)
    long_lines = "[...Array(30).keys()].map((i) => `line ${i}: ` + 'a long line of the round, '.repeat(3))"
    said = "(lines) => socket.onmessage({data: JSON.stringify({...state, log: lines})})"
    page.evaluate(f"({said})({long_lines})")
    log = "document.querySelector('ol[data-key=log]')"
    at_end = f"{log}.scrollTop + {log}.clientHeight >= {log}.scrollHeight - 2"
    assert page.evaluate(at_end)
    page.set_viewport_size({"width": 844, "height": 390})  # turned: two columns, the log in the narrower one
    assert page.evaluate(f"{log}.clientWidth") < 500
    page.wait_for_function(at_end)
    page.evaluate(f"({said})([...state.log, 'the newest line'])")
    assert page.evaluate(at_end)
    page.set_viewport_size({"width": 320, "height": 640})
    before = page.locator("#main").get_attribute("data-moves")
    page.evaluate("socket.onclose = null; socket.close(); alertUser(w('web_reconnecting'))")  # (not again)
    page.wait_for_function("socket.readyState === WebSocket.CLOSED")
    for _ in range(2):  # said once, before why (which stays), however often it is tapped
        page.locator(".card-button:not([disabled])").first.tap()
        for _ in range(2):  # a player to choose, then a Guard's guess, where asked
            with contextlib.suppress(PlaywrightTimeout):
                page.locator(".picking button.target, .picking button.guess").first.tap(timeout=1000)
        page.wait_for_selector("#alert:has-text('Your move was not sent')")
        assert page.locator("#alert").inner_text() == ("Your move was not sent: play it again once the connection is"
                                                       " back. Connection lost: reconnecting…")
    assert page.locator("#main").get_attribute("data-moves") == before


# the cards that ask for a choice with two players (the Priest, Baron and King have one player to choose)
ASKING = ("guard", "prince")
ASKING_ENABLED = ", ".join(f".card-button[data-key=card-{card}]:not([disabled])" for card in ASKING)


def test_switching_the_language_keeps_what_you_were_doing(server, browser):
    """The language button changes the words only: the lobby's form keeps what was filled in, and a
    card being played keeps its choice open (the replay keeps its step: see the replay test)."""
    ann = new_page(browser, server)
    ann.fill("#name", "Zed")
    ann.select_option("#edition", "2019")
    ann.select_option("#players", "5")
    ann.select_option("select[name=seat3]", "expert")
    ann.fill("input[name=target]", "3")
    ann.check("input[name=private]")
    ann.click("#lang")
    ann.wait_for_selector("#create h2:has-text('Nieuwe tafel')")
    assert ann.input_value("#name") == "Zed" and ann.input_value("#edition") == "2019"
    assert ann.input_value("#players") == "5" and ann.locator(".seat-kind").count() == 4
    assert ann.input_value("select[name=seat3]") == "expert" and ann.input_value("input[name=target]") == "3"
    assert ann.is_checked("input[name=private]")
    ann.click("#lang")
    ann.wait_for_selector("#create h2:has-text('New table')")
    ann.select_option("#edition", "classic")  # the two-player classic game of ASKING
    create_table(ann, "Ann", {1: "random"}, target=1)
    matches = 1
    while True:  # until Ann may play a card that asks for a choice
        ann.wait_for_selector(".your-turn, .status .result")
        if ann.locator(".status .result").count():
            assert matches < 5, "five matches without a Guard or Prince to play"
            play_a_rematch(ann)
            matches += 1
        elif ann.locator(ASKING_ENABLED).count():
            before = moves_shown(ann)
            ann.locator(ASKING_ENABLED).first.click()  # played at once if the other is protected
            ann.wait_for_function(f"document.querySelector('.picking') !== null"
                                  f" || Number(document.querySelector('#main').dataset.moves) > {before}")
            if ann.locator(".picking").count():
                break
        else:
            play_one_move(ann)
    prompt = ann.locator(".picking #pick-prompt").inner_text()
    ann.click("#lang")
    ann.wait_for_selector(".picking #pick-prompt:has-text('Kies')")  # still choosing, in Dutch
    ann.click("#lang")
    ann.wait_for_selector(f".picking #pick-prompt:has-text('{prompt}')")


#: The Dutch words come 400 ms late (a slow network), and say so on the page once they have come.
LATE_DUTCH_WORDS = """(() => {
  const fetched = window.fetch;
  window.fetch = async (url, ...rest) => {
    const answer = await fetched(url, ...rest);
    if (String(url).endsWith("/api/words/nl")) {
      await new Promise((done) => setTimeout(done, 400));
      setTimeout(() => { window.lateWordsCame = true; }, 100);  // once the page has read them
    }
    return answer;
  };
})();"""


def test_the_language_clicked_twice_ends_in_the_language_chosen_last(server, browser):
    """English, Dutch, English again, the Dutch words coming last: they were put on the page anyway,
    which then spoke two languages (its own words Dutch, the cards and the log English)."""
    ann = new_page(browser, server)
    ann.add_init_script(LATE_DUTCH_WORDS)
    ann.reload()
    create_table(ann, "Ann", {1: "beginner"})
    ann.wait_for_selector(".hand .card")
    ann.evaluate("document.getElementById('lang').click(); document.getElementById('lang').click()")
    ann.wait_for_function("window.lateWordsCame === true")
    assert ann.evaluate("[document.documentElement.lang, localStorage.getItem('ll-lang')]") == ["en", "en"]
    assert ann.locator("#lang").inner_text() == "Nederlands"
    assert ann.get_by_role("heading", name="Your hand").count() == 1
    ann.click("#lang")  # and a single click still switches
    ann.wait_for_selector("#lang:has-text('English')")
    assert ann.get_by_role("heading", name="Jouw hand").count() == 1


def test_the_keyboard_focus_follows_the_game_and_a_screen_reader_hears_the_news(server, browser):
    """The page is rebuilt on every change; the focus must not fall back to the page itself: a card
    chosen moves it to its first choice, Back returns it to the card, and your turn puts it on your
    first playable card, also when it begins while the focus is on a choice (a move made with a
    choice won the round, and you start the next). What happened, and that it is your turn, go to a
    live region that stays."""
    ann = new_page(browser, server)
    create_table(ann, "Ann", {1: "random"}, players=2, target=3)
    focused = "(document.activeElement.dataset.key || document.activeElement.className)"
    # (the Princess only where nothing else may be played)
    first_playable = ("(document.querySelector('.card-button:not([disabled]):not([data-key=card-princess])')"
                      " || document.querySelector('.card-button:not([disabled])')).dataset.key")
    over = "document.querySelector('.status .result') !== null"
    chose = backed = begun_on_a_choice = False
    matches = 1
    while not chose:
        ann.wait_for_selector(".your-turn, .status .result")
        if ann.locator(".status .result").count():  # a match without a Guard or Prince to choose with
            assert matches < 5, (backed, begun_on_a_choice)
            play_a_rematch(ann)
            matches += 1
            continue
        ann.wait_for_function(f"{focused} === {first_playable}")  # on the first playable card
        assert "Your turn" in ann.locator("#announce").inner_text() and ann.title().startswith("Your turn")
        before, card = moves_shown(ann), ann.evaluate(focused)
        if not card.endswith(ASKING) and ann.locator(ASKING_ENABLED).count():
            # the deal must not decide whether the choices are reached: Tab on to the card that asks
            ann.keyboard.press("Tab")
            ann.wait_for_function(f"{focused}.startsWith('card')")
            card = ann.evaluate(focused)
            assert card.endswith(ASKING), card
        ann.keyboard.press("Enter")
        if ann.locator(".picking").count():  # a card with choices: the focus is on the first of them
            ann.wait_for_function(f"/^(target|guess)-/.test({focused})")
            group = ann.locator(".picking[role=group]")  # named by its question
            assert ann.locator(f"#{group.get_attribute('aria-labelledby')}").inner_text()
            assert ann.locator(".card-button[aria-pressed=true]").count() >= 1  # the card chosen
            if not backed:
                ann.keyboard.press("Escape")  # as Back
                ann.wait_for_function(f"{focused} === '{card}'")  # back on the card
                backed = True
                ann.keyboard.press("Enter")  # and on to its choices again
                ann.wait_for_function(f"/^(target|guess)-/.test({focused})")
            if not begun_on_a_choice:
                # a state that starts her turn, given to the page's own handler as if her move had won
                # the round: the focus leaves the choice for her first playable card; then the real
                # state again (her turn, begun once more), and the same turn is played from the start
                ann.evaluate("window.real = state;"
                             " socket.onmessage({data: JSON.stringify({...state, round: state.round + 1, log: []})})")
                ann.wait_for_function(f"{focused} === {first_playable}")
                ann.evaluate("socket.onmessage({data: JSON.stringify(window.real)})")
                begun_on_a_choice = True
                continue
            while ann.locator(".picking").count() and moves_shown(ann) == before:  # the first choices
                step = ann.evaluate(focused)
                ann.keyboard.press("Enter")  # a player: on to the guess, if a Guard's; a guess: the move
                # on to the guess, or the move made (never Enter twice on one move)
                then = f"String({focused}).startsWith('guess-')" if step.startswith("target-") else "false"
                ann.wait_for_function(f"document.querySelector('#main').dataset.moves !== '{before}' || {over}"
                                      f" || {then}")
            chose = True
        ann.wait_for_function(f"document.querySelector('#main').dataset.moves !== '{before}' || {over}")
    assert ann.locator("#lang").get_attribute("lang") == "nl"  # the button names Dutch, in Dutch


def test_a_finished_match_replays_step_by_step_and_its_record_uploads(server, browser, tmp_path):
    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {1: "random"}, target=1)
    ann.wait_for_selector(".your-turn")
    ann.check("#hints-toggle")  # the expert's advice, off by default
    ann.wait_for_selector("#hint-list li")
    # how to read them, as the terminal says it: to the eye, and in words
    assert ann.locator(".hint-legend .shown").inner_text() == ENGLISH("hint_legend")
    assert ann.locator(".hint-legend .visually-hidden").inner_text() == ENGLISH("sr_hint_legend")
    # (a sign joined to its number by a no-break space)
    assert re.search(r": win (≈\xa0\d+%( ±\xa0\d+)?|<1%|>99%|0%|100%)( · best)?$", ann.locator("#hint-list li .shown").first.inner_text())
    # the best marked in the list itself, where the figures differ (the bold "best" lines)
    lines = ann.locator("#hint-list li .shown").all_inner_texts()
    figures = {re.search(r": win (≈\xa0)?([<>]?\d+)%", line).group(2) for line in lines}  # type: ignore[union-attr]
    best = ann.locator("#hint-list li.best .shown").all_inner_texts()
    assert bool(best) == (len(figures) > 1) and all(line.endswith(" · best") for line in best)
    # a figure is kept whole on a narrow screen ("≈ 27%" and "± 4" fell on two lines), a card's chance too
    for figure in ("#hint-list li .figure", ".belief .figure"):
        assert ann.locator(figure).first.evaluate("(e) => getComputedStyle(e).whiteSpace") == "nowrap", figure
    assert ann.locator(".belief").count() == 1  # its guess at the other player's hand, every card possible
    assert re.fullmatch(r"Bot 1 \(random\): \w+ (\d+%|>99%)(, \w+ \d+%)*(; under 1%: \w+(, \w+)*)?",
                        ann.locator(".belief .shown").inner_text())
    # to a screen reader in words: no sign it reads out wrongly, or not at all
    spoken = ann.locator("#hint-list li .visually-hidden").all_inner_texts() + [
        ann.locator(".belief .visually-hidden").inner_text()]
    assert not [line for line in spoken if re.search("[≈±<>→↓]", line)], spoken
    assert all(re.fullmatch(r"(\w+ on [\w ()]+(, name \w+)?|\w+): win (about \d+%(, give or take \d+ points?)?"
                            r"|less than 1%|more than 99%|\d+%)(, best)?", line) for line in spoken[:-1]), spoken
    while True:
        ann.wait_for_selector(".your-turn, .status .result")
        if ann.locator(".status .result").count():
            break
        play_one_move(ann)
    assert ann.locator(".hand").count() == 0  # nothing left to play: no empty hand panel with the hints' box
    download = ann.locator(f"a[download='loveletter-{code}.json']")
    record = ann.request.get(server.rstrip("/") + download.get_attribute("href"))
    assert record.ok and record.json()["format"] == "loveletter-record/1"
    ann.click("#replay-link")
    ann.wait_for_selector("#replay-step")
    assert ann.locator("#replay-step").inner_text().strip().startswith("Step 1 of")
    assert ann.locator("#replay-back").is_disabled()
    # named without the arrows drawn beside the words (read out as "left-pointing triangle")
    assert ann.get_by_role("button", name="Back", exact=True).count() == ann.get_by_role("button", name="Next", exact=True).count() == 1
    assert ann.locator(".player .cards .card").count() == 3  # every hand shown: the starter's two, one
    # the hand and the discards named for the eye too (two rows of cards alike), not read out twice
    assert ann.locator(".player .named-pile > span").all_inner_texts() == ["Hand:", "Discards:"] * 2
    assert ann.locator(".player .named-pile > span[aria-hidden=true]").count() == 4
    assert ann.locator(".face-up .card").count() == 3  # two players: the three cards removed face up
    # the list named once for a screen reader (it heard its visible words, then its name: the same)
    assert ann.locator(".face-up ul").get_attribute("aria-label") == "Face up (out of this round)"
    assert ann.locator(".face-up > span").get_attribute("aria-hidden") == "true"
    # the page says it is a replay, and of which table (it was "Love Letter", as the lobby)
    assert ann.title() == f"Replay · {code} – Love Letter"
    assert ann.locator("#replay-title").inner_text() == f"Replay · {code}"
    assert ann.locator(".player h3").first.inner_text().startswith("Ann")
    assert "Bot 1 (random)" in ann.locator(".player h3").nth(1).inner_text()  # with its level, as at the table
    assert ann.locator(".player p").first.inner_text() == "Tokens: 0 of 1"  # the target too, as at the table
    assert ann.locator("#replay-result").count() == 0
    ann.keyboard.press("ArrowRight")
    ann.wait_for_selector("#replay-step:has-text('Step 2 of')")
    ann.focus("#lang")  # the same step, in Dutch; the focus stays on the button, as at the table
    ann.keyboard.press("Enter")  # (it went to Back, and the next Enter stepped back)
    ann.wait_for_selector("#replay-step:has-text('Stap 2 van')")
    assert "Bot 1 (willekeurig)" in ann.locator(".player h3").nth(1).inner_text()  # the bot too, as at the table
    assert ann.evaluate("document.activeElement.id") == "lang"
    ann.keyboard.press("Enter")
    ann.wait_for_selector("#replay-step:has-text('Step 2 of')")
    assert_replay_steps_are_announced(ann)  # (on to the last step)
    # the last step says who won the match, as the command line's replay
    assert re.fullmatch(r"Match over: (Ann|Bot 1 \(random\)) wins\. Tokens: Ann [01], Bot 1 \(random\) [01]\.",
                        ann.locator("#replay-result").inner_text())
    path = tmp_path / "record.json"
    path.write_text(record.text())
    ann.goto(server)
    ann.wait_for_function("document.title === 'Love Letter'")  # the lobby again
    # the picker speaks the page's language (the browser's own "Choose File" is hidden), and names the file
    assert ann.locator(".file-pick").inner_text().strip() == "Choose a file…"
    assert ann.locator("#record-file-name").inner_text() == "No file chosen"
    ann.set_input_files("#record-file", str(path))
    assert ann.locator("#record-file-name").inner_text() == "record.json"
    ann.click("#lang")  # the lobby is drawn again in Dutch: the file stays chosen
    ann.wait_for_selector(".file-pick:has-text('Kies een bestand…')")
    assert ann.locator("#record-file-name").inner_text() == "record.json"
    ann.click("#lang")
    ann.wait_for_selector(".file-pick:has-text('Choose a file…')")
    ann.click("#upload button[type=submit]")
    ann.wait_for_selector("#replay-step:has-text('Step 1 of')")
    ann.keyboard.press("ArrowRight")
    ann.click("#lang")  # an uploaded record too
    ann.wait_for_selector("#replay-step:has-text('Stap 2 van')")
    ann.click("#lang")
    ann.wait_for_selector("#replay-step:has-text('Step 2 of')")
    path.write_text('{"players": ["A"]}')
    ann.goto(server)
    ann.click("#lang")
    ann.wait_for_selector(".file-pick:has-text('Kies een bestand…')")
    assert ann.locator("#record-file-name").inner_text() == "Geen bestand gekozen"
    ann.click("#lang")
    ann.wait_for_selector(".file-pick:has-text('Choose a file…')")
    ann.set_input_files("#record-file", str(path))
    ann.click("#upload button[type=submit]")
    ann.wait_for_selector("#alert:has-text('not a valid game record')")
    def send_file(content: bytes) -> None:
        path.write_bytes(content)
        ann.set_input_files("#record-file", str(path))
        ann.click("#upload button[type=submit]")

    send_file(b"\xff\xfe{}")  # not UTF-8 (read as text, it was taken for UTF-16 and found empty)
    ann.wait_for_selector("#alert:has-text('is UTF-16 text: a record is read as UTF-8')")  # its bytes, as they are
    send_file(b"\xe9{}")
    ann.wait_for_selector("#alert:has-text('not a text file')")
    # too large: said without sending it (nginx refuses a body past 1 MiB with a page of its own, and
    # the page said "cannot be reached: try again"); one byte less is sent, and read by the server
    uploads = []

    def noted(request):
        if "/api/replay" in request.url:
            uploads.append(request.url)

    ann.on("request", noted)
    send_file(b" " * (MAX_RECORD_BYTES + 1))
    ann.wait_for_selector("#alert:has-text('That file is too large for a game record (at most 1\u2009000 kB).')")
    assert uploads == []
    send_file(b" " * MAX_RECORD_BYTES)
    ann.wait_for_selector("#alert:has-text('not a valid game record')")
    assert len(uploads) == 1
    ann.remove_listener("request", noted)
    send_file(json.dumps({**record.json(), "event": "club night"}).encode())  # a field the format does not name
    ann.wait_for_selector("#replay-step:has-text('Step 1 of')")  # replayed, and the field named
    assert ann.locator("#alert").inner_text() == "Left out (not in loveletter-record/1): 'event' in the record."


def assert_replay_steps_are_announced(page: Page) -> None:
    """Stepping from a replay's start to its end, a screen reader hears each step and every line it
    adds to the log, the several lines of the round's end together."""
    while not page.locator("#replay-back").is_disabled():  # (a round may end at its first move)
        page.click("#replay-back")
    lines = page.locator("[data-key=replay-log] li")
    before = lines.all_inner_texts()
    most = 0
    while not page.locator("#replay-next").is_disabled():
        page.click("#replay-next")
        after = lines.all_inner_texts()
        assert after[:len(before)] == before  # one round: the log only grows
        added = after[len(before):]
        step = page.locator("#replay-step").inner_text().strip()
        # the last step says how the match stands, heard after the step's lines
        result = page.locator("#replay-result").all_inner_texts()
        assert len(result) == page.locator("#replay-next").is_disabled()
        assert page.locator("#announce").text_content() == " ".join([f"{step}.", *added, *result])
        most, before = max(most, len(added)), after
    assert most >= 2  # the last step: the move and the round's end


def test_a_seat_open_in_too_many_tabs_says_why_and_asks_again_later(server, browser):
    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {1: "random"})
    ann.wait_for_selector(".your-turn")
    context = ann.context  # one browser: every tab holds Ann's seat
    tabs = [ann]
    for _ in range(9):
        tab = context.new_page()
        tab.set_default_timeout(15_000)
        tab.goto(f"{server}#/t/{code}")
        tab.wait_for_selector(".your-turn")
        tabs.append(tab)
    late = context.new_page()  # the eleventh, its clock in the test's hands
    late.set_default_timeout(15_000)
    late.clock.install()
    sockets: list[object] = []
    late.on("websocket", lambda socket: sockets.append(socket))
    late.goto(f"{server}#/t/{code}")
    refusal = "#alert:has-text('This seat is already open in 10 places')"
    late.wait_for_selector(refusal)
    late.wait_for_timeout(500)  # the server closes the connection
    late.clock.run_for(5_000)  # the reason stays, and no retry at once
    late.wait_for_timeout(500)
    assert late.locator(refusal).count() == 1
    assert late.locator(".your-turn").count() == 0
    assert len(sockets) == 1
    tabs.pop().close()
    tries = 0
    while not late.locator(".your-turn").count():  # asked again later: the seat is there once the server saw
        assert tries < 5, "the seat was not taken again"  # the tab go (on a busy machine, after a try or two)
        late.clock.run_for(31_000)
        tries += 1
        deadline = time.monotonic() + 15  # this try's answer: the seat, or the connection refused again
        while not late.locator(".your-turn").count() and not (len(sockets) == 1 + tries and sockets[-1].is_closed()):
            assert time.monotonic() < deadline, "no answer to the try"
            late.wait_for_timeout(100)
    assert late.locator("#alert").inner_text() == ""
    assert len(sockets) == 1 + tries  # (one connection a try: none at once)
    context.close()


def test_a_server_killed_mid_match_resumes_and_the_browser_reconnects(browser, tmp_path):
    port, database = free_port(), tmp_path / "web.sqlite3"
    url = f"http://127.0.0.1:{port}/"
    process = start_server(port, str(database), bot_delay=0.05)
    try:
        ann = new_page(browser, url)
        # the default target (7): the bot would have to win about five rounds on its first move in a row
        # to end the match within Ann's three moves (with target 3 it sometimes did)
        code = create_table(ann, "Ann", {1: "beginner"})
        for _ in range(2):
            ann.wait_for_selector(".your-turn")
            play_one_move(ann)
        ann.wait_for_selector(".your-turn")
        before = moves_shown(ann), ann.locator(".hand .card .name").all_inner_texts()
        process.kill()  # no goodbye: SIGKILL
        process.wait(10)
        ann.wait_for_selector("#alert:has-text('reconnecting')")
        process = start_server(port, str(database), bot_delay=0.05)
        ann.wait_for_selector("#alert:empty", state="attached", timeout=30_000)  # reconnected by itself
        ann.wait_for_selector(".your-turn")
        # and a screen reader is told so (the alert that said the connection was lost just went blank)
        assert ann.locator("#announce").inner_text().startswith("Connected again.")
        assert (moves_shown(ann), ann.locator(".hand .card .name").all_inner_texts()) == before
        assert ann.url.endswith(f"#/t/{code}") and ann.locator(".spectating").count() == 0
        play_one_move(ann)  # and the match goes on
        assert moves_shown(ann) > before[0]
    finally:
        process.kill()
        process.wait(10)


def test_a_server_stopped_is_said_so_and_the_page_connects_again_once_it_is_back(browser, tmp_path):
    """A server stopped (SIGTERM, Ctrl-C, a hang-up) closes its pages' connections as a server going
    away (1012): the page said only that the connection was lost."""
    port, database = free_port(), tmp_path / "web.sqlite3"
    process = start_server(port, str(database))
    try:
        ann = new_page(browser, f"http://127.0.0.1:{port}/")
        create_table(ann, "Ann", {1: "random"})
        ann.wait_for_selector(".your-turn")
        stop_server(process)
        ann.wait_for_selector("#alert:has-text('The server has stopped: reconnecting once it is back')")
        ann.wait_for_timeout(2_500)  # tries to connect again fail meanwhile: still said (it said "Connection lost")
        assert "The server has stopped" in ann.locator("#alert").inner_text()
        process = start_server(port, str(database))
        ann.wait_for_selector("#alert:empty", state="attached", timeout=30_000)
        ann.wait_for_selector(".your-turn")
    finally:
        process.kill()
        process.wait(10)


def test_a_double_click_makes_one_move_and_the_page_keeps_its_log_and_leaves_cleanly(server, browser):
    """A double click sent the move twice (the second refused: "The table has moved on …"); "Your
    turn" was added to the round's own log on a page (re)loaded on your turn, and shown as a line of
    it; and a table left for one that does not exist stayed on screen, its cards dead (a click threw
    an error); then the page was left blank but for the line, rather than back in the lobby."""
    page = new_page(browser, server)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda data: sent.append(json.loads(data)["type"])))
    code = create_table(page, "Ann", {1: "random"}, target=7)
    single = ".card-button:not([disabled]):not(:has(.card-guard, .card-prince, .card-princess))"
    for _ in range(40):  # a card with a single move (a 2-player Priest, Baron, King, Handmaid …)
        page.wait_for_selector(".card-button:not([disabled])")
        if page.locator(single).count():
            break
        play_one_move(page)
    else:
        pytest.fail("no card with a single move came up")
    before, moves_sent = moves_shown(page), sent.count("move")
    page.locator(single).first.dblclick()
    page.wait_for_function(f"Number(document.querySelector('#main').dataset.moves) > {before}")
    page.wait_for_timeout(300)
    assert sent.count("move") == moves_sent + 1
    page.wait_for_selector(".card-button:not([disabled])")  # our turn again: the page is loaded anew
    page.reload()
    page.wait_for_selector(".card-button:not([disabled])")
    log = page.locator(".log ol li").all_text_contents()
    assert log and "Your turn" not in log, log
    assert "Your turn" in page.locator("#announce").text_content()  # said, not logged
    page.goto(server + "#/t/ZZZZZZ")
    page.wait_for_selector("#create")  # back in the lobby, whose join form takes another code
    page.wait_for_selector("#alert:not([hidden])")
    assert page.locator("#alert").text_content() == "There is no table with this code."
    assert page.url.endswith("#/")  # (it stayed at the code, the page blank but for the line)
    assert page.locator(".card-button").count() == 0  # the old table is gone, not left with dead cards
    assert not errors, errors
    assert code != "ZZZZZZ"


def test_a_screen_reader_hears_every_line_of_a_round_its_end_too(server, browser):
    """When a move ended the round, the next state was already the new round, and only its lines
    were announced: how the round ended (who was out, who won) was never heard."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, target=3)
    told_before = page.locator(".log ol li").all_text_contents()  # (announced before we listened)
    page.evaluate("""() => { window.heard = [];
        new MutationObserver(() => window.heard.push(document.getElementById('announce').textContent))
          .observe(document.getElementById('announce'), {childList: true, characterData: true, subtree: true}); }""")
    while not page.locator(".previous ol li").count():  # until the first round has ended
        page.wait_for_selector(".your-turn, .previous ol li")
        if page.locator(".your-turn").count() and not page.locator(".previous ol li").count():
            play_one_move(page)
    ended = page.locator(".previous ol li").all_text_contents()[len(told_before):]
    heard = " ".join(page.evaluate("window.heard"))
    assert ended and all(line in heard for line in ended), [line for line in ended if line not in heard]


def test_a_table_opened_mid_round_is_told_in_one_line_not_read_out_whole(server, browser):
    """Opening a table mid-round, or reloading it, a screen reader hears what happened last and whose
    turn it is: the whole round's log was read out in one go, longer with every move."""
    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {1: "random", 2: "random", 3: "random"}, players=4)
    for _ in range(2):
        ann.wait_for_selector(".your-turn, .status .result")
        if ann.locator(".your-turn").count():
            play_one_move(ann)
    ann.wait_for_selector(".your-turn")  # (her turn waits for her: nothing moves meanwhile; four tokens to win)
    ann.reload()
    ann.wait_for_selector(".your-turn")
    last = ann.locator("[data-key=log] li").last.inner_text()
    assert ann.locator("#announce").text_content() == f"{last} Your turn"
    watcher = new_page(browser, f"{server}#/t/{code}")
    watcher.wait_for_selector(".spectating")
    last = watcher.locator("[data-key=log] li").last.inner_text()  # (not "Ann draws …": hers alone)
    assert watcher.locator("#announce").text_content() == f"{last} Ann is to play"
    watcher.close()
    ann.close()


def test_a_redraw_keeps_the_focus_on_a_half_made_choice_and_it_never_drops_to_the_page(server, browser):
    """With hints on, their redraw moved the focus off a half-made choice onto the first playable
    card, which the next Enter chose (or played at once); after your own move the card went and the
    focus fell to the page; and the match's end was shown but never read out."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random", 2: "random"}, players=3, target=1)
    focused = "(document.activeElement.dataset.key || document.activeElement.id || document.activeElement.tagName)"
    chose = False
    matches = 1
    while True:
        page.wait_for_selector(".your-turn, .status .result")
        if page.locator(".status .result").count():
            assert page.locator(".status .result").inner_text() in page.locator("#announce").inner_text()
            if chose:
                break
            assert matches < 8  # (a match may end before Ann holds a card that asks for a player)
            play_a_rematch(page)
            matches += 1
            continue
        if not chose and page.locator(ASKING_ENABLED).count():
            before = moves_shown(page)
            page.locator(ASKING_ENABLED).first.focus()
            page.keyboard.press("Enter")
            # (played at once where it is the card's one move: a Prince with every other player
            # protected or out, which waited here for a choice that never came)
            page.wait_for_function("document.querySelector('.picking') !== null"
                                   f" || Number(document.querySelector('#main').dataset.moves) > {before}")
            if not page.locator(".picking").count():
                continue
            page.wait_for_function(f"{focused}.startsWith('target-')")
            page.keyboard.press("Tab")  # the next choice (the hand's cards come first on the page)
            choice = page.evaluate(focused)
            assert choice.startswith("target-") or choice == "cancel", choice  # (one player to choose: Back)
            page.evaluate("render()")  # as when the hints come
            assert page.evaluate(focused) == choice
            page.keyboard.press("Escape")
            chose = True
        before = moves_shown(page)
        play_one_move(page, keyboard=True)
        page.wait_for_function(f"document.querySelector('#main').dataset.moves !== '{before}'")
        assert page.evaluate(focused) != "BODY"  # the hand's heading, or the next card to play


def test_the_page_plays_under_its_own_content_security_policy(server, browser):
    """The policy lets the page load only its own files, with no inline script or style: a page
    that broke it would lose what it blocks without a word but a console error."""
    page = new_page(browser, server, csp=True)
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    create_table(page, "Ann", {1: "random"}, target=1)
    while True:
        page.wait_for_selector(".your-turn, .status .result")
        if page.locator(".status .result").count():
            break
        play_one_move(page)
    assert page.locator(".card use").count() > 0  # the cards' emblems, from cards.svg
    page.click("#replay-link")
    page.wait_for_selector("#replay-step")
    assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_page_shows_each_hint_and_its_best_mark_as_the_server_words_them(server, browser, lang):
    """The page worded the hints and marked the best with copies of the terminal's code (``percent``,
    ``hintMargin``, ``hintText``, ``bestHints``), kept equal by tests: the server now sends each hint
    worded and marked (:func:`~loveletter.percentages.hint_text`,
    :func:`~loveletter.percentages.best_moves`), and the page shows just that, in the player's
    language."""
    page = new_page(browser, server)
    received: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: received.append(json.loads(frame))))
    create_table(page, "Ann", {1: "random"}, target=1)
    if lang == "nl":
        page.click("#lang")
        page.wait_for_selector("#lang[lang=en]")  # (the button names English once the page is Dutch)
    page.wait_for_selector(".your-turn")
    page.check("#hints-toggle")
    page.wait_for_selector("#hint-list li")
    moves = moves_shown(page)
    advice = [m for m in received if m.get("type") == "hints" and m["moves"] == moves][-1]
    lines = page.locator("#hint-list li .shown").all_inner_texts()
    best = " · " + ("beste" if lang == "nl" else "best")
    # as the server words them, each sign joined to its number by a no-break space ("≈\xa083%")
    assert [re.sub(r"^.*?: ", "", line).replace("\xa0", " ") for line in lines] == [
        o["text"] + (best if o["best"] else "") for o in advice["odds"]]
    # (a deal whose every chance is certain shows no sign: any("≈\xa0" …) failed now and then)
    assert not [line for line in lines if re.search(r"[≈±] ", line)]
    assert all(re.search(r"[≈±]\xa0", line) for line in lines if re.search(r"[≈±]", line))
    assert all(o["text"].startswith("winkans " if lang == "nl" else "win ") for o in advice["odds"])
    # hints in the other language (asked for before a switch, answered after it) are dropped
    kept = page.evaluate("""() => {
        const before = hints;
        socket.onmessage({ data: JSON.stringify({ ...hints, lang: lang === "nl" ? "en" : "nl",
                                                  odds: hints.odds.map((o) => ({ ...o, text: "stale" })) }) });
        return hints === before && !document.querySelector("#hint-list").innerText.includes("stale");
    }""")
    assert kept
    # whatever the server says is what shows: a figure of its own, and the mark on the move it marks
    shown = page.evaluate("""() => {
        hints = { ...hints, odds: hints.odds.map((o, i) => ({ ...o, text: `figure ${i}`, best: i === hints.odds.length - 1 })) };
        render();
        return [...document.querySelectorAll("#hint-list li")].map((li) => [li.querySelector(".shown").innerText, li.classList.contains("best")]);
    }""")
    page.close()
    n = len(advice["odds"])
    assert [(re.sub(r"^.*?: ", "", text), marked) for text, marked in shown] == [
        (f"figure {i}" + (best if i == n - 1 else ""), i == n - 1) for i in range(n)]


@pytest.mark.parametrize("narrow, width", [(True, 120), (False, 144)])
def test_two_cards_fit_side_by_side_on_a_phone_and_every_name_fits_its_card(server, browser, narrow, width):
    """The phones' narrower card (7.5rem) stood before the card's own width (9rem), which undid it: on
    the narrowest phone the hand's cards stood one above the other, a Chancellor's choice far below
    its buttons. And "Kamermeisje" ran past its card's edge, or (where Georgia is missing) broke
    before its "e"."""
    page = new_page(browser, server, narrow=narrow)
    page.evaluate("async () => { lang = 'nl'; await loadWords(); }")
    measured = page.evaluate("""() => {
        const names = ["Kamermeisje", "Kanselier", "Prinses", "Chancellor", "Handmaid", "Countess"];
        const row = $("div", { class: "cards" }, ...names.map((name) => cardView({ card: "handmaid", value: 4, name,
                                                                              effect: "…" })));
        document.body.prepend(row);
        const cards = [...row.children];
        return { widths: cards.map((c) => c.getBoundingClientRect().width),
                 // on one line ("Kamermeisje" broke before its "e" where Georgia is missing)
                 fit: cards.map((c) => { const line = document.createRange();
                                         line.selectNodeContents(c.querySelector(".name"));
                                         return line.getClientRects().length === 1; }),
                 sideBySide: cards[0].getBoundingClientRect().top === cards[1].getBoundingClientRect().top };
    }""")
    page.close()
    assert measured["widths"] == [width] * 6 and all(measured["fit"]), measured
    assert measured["sideBySide"]  # (two 120-pixel cards in 320 pixels, less the page's margins)


def test_a_redraw_keeps_the_focused_control_itself_and_a_log_scrolled_back(server, browser):
    """The page was rebuilt whole on every change: the control with the focus was taken out and a new
    one focused (a screen reader told it afresh at every move), and "What happened", scrolled back to
    read, jumped to its end whenever anyone moved. Now a redraw keeps each node drawn again in its
    place. (The others' moves are given to the page's own handler, as the server sends them.)"""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, players=2, target=7)
    page.wait_for_selector(".your-turn")  # the table waits for Ann: nothing else comes meanwhile
    said = "(lines, more) => socket.onmessage({data: JSON.stringify({...state, moves: state.moves + more, log: lines})})"
    page.evaluate("window.real = state")
    page.evaluate(f"({said})([...Array(40).keys()].map((i) => 'line ' + i), 0)")  # a long round so far
    page.evaluate("""() => {
        const log = document.querySelector("ol[data-key=log]");
        log.marker = "kept"; log.focus(); log.scrollTop = 0;
        window.focusins = 0; document.addEventListener("focusin", () => window.focusins++);
    }""")
    page.evaluate(f"({said})([...state.log, 'Bob moves'], 1)")  # another's move
    log = "document.querySelector('ol[data-key=log]')"
    assert page.evaluate(f"[document.activeElement.marker, window.focusins, {log}.scrollTop]") == ["kept", 0, 0]
    assert page.locator("ol[data-key=log] li").last.inner_text() == "Bob moves"
    # at its end, it follows the newest line
    page.evaluate(f"{log}.scrollTop = {log}.scrollHeight")
    page.evaluate(f"({said})([...state.log, 'Cy moves'], 1)")
    assert page.evaluate(f"{log}.scrollTop + {log}.clientHeight >= {log}.scrollHeight - 2")
    assert page.evaluate("[document.activeElement.marker, window.focusins]") == ["kept", 0]
    # a card button kept too, and its listener now the new drawing's: it plays in the state drawn last
    # (the server's own, which takes only moves made on a state it sent)
    card = page.locator(".card-button:not([disabled])").first
    card.focus()
    page.evaluate("document.activeElement.marker = 'card'")
    page.evaluate("socket.onmessage({data: JSON.stringify(window.real)})")
    assert page.evaluate("[document.activeElement.marker, window.focusins]") == ["card", 1]  # (the one focus() above)
    before = moves_shown(page)
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 15
    while moves_shown(page) == before:  # a choice to make, if the card asks one
        assert time.monotonic() < deadline, "the move was not made"
        with contextlib.suppress(PlaywrightTimeout):
            page.locator(".picking button.target, .picking button.guess").first.click(timeout=500)


def test_the_focus_put_on_your_hand_at_your_turn_is_never_on_the_princess(server, browser):
    """One Enter on the Princess, where the focus was put at the start of the turn, knocked you out."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, players=2, target=7)
    page.wait_for_selector(".your-turn")
    # her hand made the Princess and another card, the Princess first, and her turn begun again
    page.evaluate("""() => {
        const princess = {card: "princess", name: "Princess", value: 8, effect: "If you play or discard her, you are out."};
        const move = {...state.legal[0], card: "princess", move: "princess", target: null, guess: null, guess_name: null};
        const other = state.hand.find((face) => face.card !== "princess" && state.legal.some((m) => m.card === face.card));
        const mine = state.legal.filter((m) => m.card === other.card);
        const turn = {...state, hand: [princess, other], legal: [move, ...mine]};
        socket.onmessage({data: JSON.stringify({...turn, legal: []})});
        socket.onmessage({data: JSON.stringify(turn)});
    }""")
    assert page.evaluate("document.activeElement.dataset.key") == page.evaluate(
        "document.querySelectorAll('.card-button')[1].dataset.key") != "card-princess"


def test_a_node_kept_by_a_redraw_shows_what_was_drawn(server, browser):
    """What a redraw in place must get right (a review of it found each of these wrong): a node kept
    after one replaced stays (the hints' box and panel went while a card's choices were shown); a
    box ticked by hand follows what is drawn (another tab turned the hints off); and a field's
    check speaks the page's language after a switch."""
    page = new_page(browser, server)
    code = create_table(page, "Ann", {1: ""}, players=2)  # Bob's seat open
    kept = page.evaluate("""() => {
        const live = $("div", {}, $("p", { id: "a" }, "A"), $("p", { id: "b" }, "B"));
        const b = live.lastChild;
        morph(live, $("div", {}, $("p", { id: "x" }), $("p", { id: "b" }, "B2")));
        return [[...live.children].map((n) => `${n.id}:${n.textContent}`), live.lastChild === b];
    }""")
    assert kept == [["x:", "b:B2"], True]
    # a spectator's form to join: its name checked in Dutch once the page is
    watcher = new_page(browser, f"{server}#/t/{code}")
    watcher.evaluate("localStorage.removeItem('ll-name')")
    watcher.reload()
    field = watcher.locator("#join input[name=name]")
    assert field.evaluate("(e) => e.validationMessage") == "Please give a name."
    watcher.click("#lang")
    watcher.wait_for_selector("#join button:has-text('Aanschuiven')")
    assert field.evaluate("(e) => e.validationMessage") == "Geef een naam op."
    # Bob joins; at Ann's turn her hints box, ticked by hand, is turned off by another tab
    watcher.fill("#join input[name=name]", "Bob")
    watcher.click("#join button[type=submit]")
    for seat in (page, watcher):
        seat.wait_for_selector(".hand .card")
    mover = page if page.locator(".your-turn").count() else watcher
    mover.check("#hints-toggle")
    mover.wait_for_selector("#hint-list li")
    mover.evaluate("localStorage.setItem('ll-hints', 'off'); render()")
    assert not mover.locator("#hints-toggle").is_checked() and mover.locator("#hint-list").count() == 0
    # a card's choices shown (as a Guard's: a player to choose): the hints' box after them is kept
    mover.evaluate("picking = {card: state.hand[0], index: 0, moves: [{...state.legal[0], target: 1 - state.seat}]};"
                   " render()")
    mover.wait_for_selector(".picking button.target")
    assert mover.locator(".hand > label.hints-toggle #hints-toggle").count() == 1


def test_a_princes_first_choice_is_another_player_not_yourself(server, browser):
    """The focus goes to a card's first choice; for a Prince from seat 0 that was "yourself", and one
    Enter made you discard your own hand."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random", 2: "random"}, players=3)
    page.wait_for_selector(".your-turn")
    page.evaluate("""() => {
        const prince = {card: "prince", name: "Prince", value: 5, effect: "Choose any player."};
        const moves = [0, 1, 2].map((seat) => ({...state.legal[0], card: "prince", move: `prince ${seat}`,
                                                  target: seat, guess: null, guess_name: null}));
        picking = {card: prince, index: 0, moves: moves.map((m) => ({...m, target: (m.target + state.seat) % 3}))};
        render();
    }""")
    targets = page.locator(".picking button.target").all_inner_texts()
    assert targets[-1] == "yourself" and "yourself" not in targets[:-1]


# ---------------------------------------------------------------------------------------------------
# What the page offers and shows, drawn from states given to the page's own handler (as the server
# sends them), its moves caught before they go out.

#: The page's moves kept in ``window.sent`` rather than sent (the states given are the test's own).
# (the connection's pulse stopped: a ping unanswered would take it for dead, and connect again)
KEEP_WHAT_IS_SENT = ("() => { window.sent = []; socket.send = (data) => { window.sent.push(JSON.parse(data)); };"
                     " clearInterval(pulse); }")
#: A state like the one shown, changed by ``change`` (an object, in JavaScript), given to the page.
GIVE_STATE = "(change) => socket.onmessage({data: JSON.stringify({...state, ...change})})"
# the server's message that people came or went: these seats away, each since a moment ago
AWAY = ("(away) => socket.onmessage({data: JSON.stringify({type: 'away', away,"
        " away_for: Object.fromEntries(away.map((seat) => [seat, 0]))})})")
#: The server's hints for the position after ``moves`` moves, each figure's text as given.
GIVE_HINTS = "([moves, odds]) => socket.onmessage({data: JSON.stringify({type: 'hints', moves, lang, belief: {}, odds})})"


ENGLISH, DUTCH = Translator("en"), Translator("nl")


def face(card: str) -> dict[str, object]:
    """A card of the classic edition as the server sends it (messages.card_face), in English."""
    return card_face(Card.from_word(card), CLASSIC, ENGLISH)


def entry(move: str, sent_as: str | None = None) -> dict[str, object]:
    """A legal move as the server lists it (messages.move_entry), in English; ``sent_as``: the text
    the page sends for it, where the test picks its own to tell the moves apart."""
    listed = move_entry(Action.parse(move), [], ENGLISH)
    return listed if sent_as is None else {**listed, "move": sent_as}


def test_a_card_is_offered_only_with_the_moves_the_server_listed_for_it(server, browser):
    """A card the server lists no move for (the King beside the Countess) is not offered, and says
    why; a Guard offers each other player once, then only the guesses listed for that player; a
    Priest with two players to choose from is played as soon as one is chosen (no empty guess)."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random", 2: "random"}, players=3)
    page.wait_for_selector(".your-turn")
    page.evaluate(KEEP_WHAT_IS_SENT)
    me, moves = page.evaluate("state.seat"), moves_shown(page)
    others = [(me + 1) % 3, (me + 2) % 3]
    legal = [entry(f"guard {t} {g.lower()}") for t in others for g in ("Priest", "Baron")]
    page.evaluate(GIVE_STATE, {"phase": "play", "hand": [face("guard"), face("king")],
                               "legal": legal, "blocked": {"king": "You must play the Countess."}})
    assert page.locator(".card-button[data-key=card-king]").is_disabled()
    assert page.locator(".hand .reason").all_inner_texts() == ["You must play the Countess."]
    page.click(".card-button[data-key=card-guard]")
    targets = page.locator(".picking button.target")
    assert targets.all_inner_texts() == [page.evaluate(f"state.names[{t}]") for t in others]
    targets.first.click()
    assert page.locator(".picking button.guess").all_inner_texts() == ["Priest", "Baron"]
    page.click(".picking button.guess:has-text('Baron')")
    assert page.evaluate("window.sent") == [{"type": "move", "move": f"guard {others[0]} baron", "at": moves}]
    # the next state: a Priest, at either other player
    page.evaluate(GIVE_STATE, {"moves": moves + 1, "hand": [face("priest"), face("king")],
                               "legal": [entry(f"priest {t}") for t in others], "blocked": {}})
    page.click(".card-button[data-key=card-priest]")
    page.locator(".picking button.target").last.click()
    assert page.evaluate("window.sent.at(-1)") == {"type": "move", "move": f"priest {others[1]}", "at": moves + 1}
    assert page.locator(".picking button.guess").count() == 0


def test_a_chancellors_choice_keeps_the_card_clicked_and_shows_the_order_under_the_deck(server, browser):
    """Each of the Chancellor's choices is its own button, as tall as its words, the card kept then the
    others in the order they go under the deck; the prompt to choose is shown only to the player
    choosing. (On a phone, where a choice shares its row with a card.)"""
    page = new_page(browser, server, phone=True)
    create_table(page, "Ann", {1: "random"}, players=2)
    page.wait_for_selector(".your-turn")
    page.evaluate(KEEP_WHAT_IS_SENT)
    me, moves = page.evaluate("state.seat"), moves_shown(page)
    hand = [face("guard"), face("priest"), face("baron")]
    prompt = page.get_by_text("Chancellor: choose the card to keep")
    page.evaluate(GIVE_STATE, {"phase": "chancellor", "hand": hand, "legal": [], "current": 1 - me})
    assert prompt.count() == 0  # the other player chooses
    choices = [entry(f"chancellor keep {card['card']} bottom {','.join(c['card'] for c in hand if c is not card)}",
                     f"keep-{i}") for i, card in enumerate(hand)]
    page.evaluate(GIVE_STATE, {"phase": "chancellor", "hand": hand, "legal": choices, "current": me})
    assert prompt.count() == 1
    buttons = page.locator(".hand button.move")
    assert buttons.all_inner_texts() == ["Guard ↓ Priest, Baron", "Priest ↓ Guard, Baron", "Baron ↓ Guard, Priest"]
    buttons.nth(1).click()
    assert page.evaluate("window.sent") == [{"type": "move", "move": "keep-1", "at": moves}]
    # six choices (each order under the deck): the last beside a card is as tall as its words, not as
    # the card (262 pixels)
    hand = [face("guard"), face("priest"), face("king")]  # (short names: the last choice fits beside a card)
    orders = [entry(f"chancellor keep {kept['card']} bottom {one['card']},{other['card']}", f"order-{i}")
              for i, (kept, one, other) in enumerate(itertools.permutations(hand))]
    page.evaluate(GIVE_STATE, {"phase": "chancellor", "hand": hand, "legal": orders, "current": me})
    page.wait_for_function("document.querySelectorAll('.hand button.move').length === 6")
    short = page.evaluate("""() => {  // the pixels the hand lacks for its last choice and a card side by side
      const row = document.querySelector(".hand .cards"), gap = parseFloat(getComputedStyle(row).columnGap);
      const last = [...row.querySelectorAll("button.move")].pop(), card = row.querySelector(".card-button");
      return last.offsetWidth + gap + card.offsetWidth - row.clientWidth;
    }""")
    page.set_viewport_size({"width": 390 + max(0, math.ceil(short)), "height": 844})
    last, card = buttons.nth(5).bounding_box(), page.locator(".hand .card-button").first.bounding_box()
    assert last["y"] == card["y"] and last["height"] < 80, (last, card)  # side by side, and short
    # the deck's last card drawn: one card goes under it, not "the others ... in the order shown"
    two = [face("guard"), face("priest")]
    page.evaluate(GIVE_STATE, {"phase": "chancellor", "hand": two, "current": me, "legal": [
        entry("chancellor keep guard bottom priest", "one-0"), entry("chancellor keep priest bottom guard", "one-1")]})
    assert page.locator(".hand p").first.inner_text() == (
        "Chancellor: choose the card to keep; the other goes under the deck.")


def test_the_players_and_side_panels_show_the_state_sent_to_the_seat(server, browser):
    """Each player's tokens, "you" on your own panel only, what you know of another's hand, the
    unseen cards counted and the cards you put under the deck, top first; a spectator has no "What
    you know"; at a match's end another's rematch is offered to join."""
    page = new_page(browser, server)
    code = create_table(page, "Ann", {1: "random"}, players=2, target=7)
    page.wait_for_selector(".your-turn")
    page.evaluate(KEEP_WHAT_IS_SENT)
    me = page.evaluate("state.seat")
    bot = page.evaluate(f"state.names[{1 - me}]")
    tokens = [0, 0]
    tokens[me], tokens[1 - me] = 1, 2
    page.evaluate(GIVE_STATE, {
        "current": 1 - me, "legal": [], "tokens": tokens, "deck_size": 5, "known": {str(1 - me): face("baron")},
        "tracker": [{"card": face("guard"), "unseen": 4}, {"card": face("priest"), "unseen": 0}],
        "under_deck": [face("handmaid"), face("prince")]})
    mine, theirs = page.locator(f".player[data-seat='{me}']"), page.locator(f".player[data-seat='{1 - me}']")
    assert mine.locator("h3").inner_text() == "Ann — you" and theirs.locator("h3").inner_text() == bot
    assert mine.locator("p").inner_text() == "Tokens: 1 of 7" and theirs.locator("p").inner_text() == "Tokens: 2 of 7"
    assert page.get_by_text(f"{bot}: Baron", exact=True).count() == 1
    assert page.get_by_text("Deck: 5", exact=True).count() == 1
    assert page.locator(".player.current").all_inner_texts() == theirs.all_inner_texts()
    assert page.locator(".tracker li").all_inner_texts() == ["Guard (1): 4", "Priest (2): 0"]
    assert page.locator(".tracker .under-deck").inner_text().endswith(" Handmaid, Prince")
    # the match over, the other player asked for a rematch: Ann may join it
    page.evaluate(GIVE_STATE, {"match_winners": [1 - me], "match_won_by": bot, "rematch": "QQQQQQ"})
    assert page.locator("#rematch").inner_text() == "Join the rematch"
    # a screen reader hears it (only the button's words changed)
    assert page.locator("#announce").text_content().endswith("The next match is ready: “Join the rematch” takes you there.")
    page.evaluate(GIVE_STATE, {})
    assert "next match" not in page.locator("#announce").text_content()  # said once
    assert page.locator(".player.current").count() == 0  # nobody's turn any more
    watcher = new_page(browser, f"{server}#/t/{code}")
    watcher.wait_for_selector(".spectating")
    assert watcher.get_by_role("heading", name="What you know").count() == 0
    assert page.get_by_role("heading", name="What you know").count() == 1


def test_who_is_away_who_is_protected_and_the_stand_in_are_shown_and_a_spectator_may_follow_the_rematch(server, browser):
    """A person away is marked so on their panel, as a message of its own says; the protection of a
    round over is not shown; the table says after how long its stand-in plays; a player may ask a bot
    to play for the person away whose move is awaited; and at the match's end a spectator is shown the
    way to the rematch (only the replay was offered)."""
    page = new_page(browser, server)
    code = create_table(page, "Ann", {1: "random"}, players=2)
    page.wait_for_selector(".your-turn")
    page.evaluate(KEEP_WHAT_IS_SENT)
    me = page.evaluate("state.seat")
    mine, theirs = page.locator(f".player[data-seat='{me}'] h3"), page.locator(f".player[data-seat='{1 - me}'] h3")
    rule = ("A bot (beginner) plays for someone away after 5 s, and for someone here who does not move within 60 s,"
            " while another player is at the table.")
    page.evaluate(GIVE_STATE, {"stand_in": rule, "protected": [True, True], "winners": []})
    assert mine.inner_text() == "Ann — you, protected" and page.locator(".stand-in-rule").inner_text() == rule
    page.evaluate(AWAY, [me])
    assert mine.inner_text() == "Ann — you, protected, away"
    assert page.locator("#announce").text_content() == "Ann is away."  # a screen reader hears it too
    page.evaluate(GIVE_STATE, {"winners": [me], "away": []})  # the round over: nobody is protected
    assert mine.inner_text() == "Ann — you" and "protected" not in theirs.inner_text()
    page.evaluate(GIVE_STATE, {"match_winners": [me], "match_won_by": "Ann", "rematch": "QQQQQQ", "away": [me]})
    assert page.locator(".stand-in-rule").count() == 0  # (nothing more to play for anyone)
    assert mine.inner_text() == "Ann — you"  # (nor anyone to wait for)
    assert page.locator("#rematch-watch").count() == 0  # (a player is offered to join it)
    page.evaluate(GIVE_STATE, {"match_winners": [], "winners": [], "current": 1 - me, "legal": [], "away": [1 - me],
                               "away_for": {1 - me: 0}, "ask_after": {"away": 1, "idle": 60},
                               "moves": 7, "bots": [None, None]})  # (a person in the other seat)
    other = page.evaluate(f"state.names[{1 - me}]")
    ask = page.locator("#stand-in-ask")  # the one to move is away, only just: a bot may be asked once a while is over
    assert ask.count() == 0  # (it was offered at once, and the server refused it for the first half minute)
    ask.wait_for(timeout=5_000)
    page.evaluate(GIVE_STATE, {"away_for": {1 - me: 30}, "ask_after": {"away": 30, "idle": 60}})  # away a while
    assert ask.inner_text() == f"Let a bot play this move for {other}"
    ask.click()
    assert page.evaluate("window.sent") == [{"type": "stand_in", "at": 7}]
    page.evaluate(AWAY, [])
    assert ask.count() == 0  # back
    assert page.locator("#announce").text_content() == f"{other} is back."
    page.evaluate(GIVE_STATE, {"moves": 8, "ask_after": {"away": 30, "idle": 1}})  # here, and not moving for a while
    assert ask.count() == 0
    ask.wait_for(timeout=5_000)  # (drawn again once the while is over)
    assert ask.inner_text() == f"Let a bot play this move for {other}"
    page.evaluate(GIVE_STATE, {"moves": 9, "waited": 0})  # the next move: its own while
    assert ask.count() == 0
    page.evaluate(GIVE_STATE, {"moves": 10, "waited": 1})  # awaited a while already (a page reloaded counted afresh)
    assert ask.count() == 1  # (at once: drawn with the state)
    page.evaluate(GIVE_STATE, {"moves": 10, "waited": 0})  # the same move, counted again from now (the table filled)
    assert ask.count() == 0
    # a newcomer's seat, away until their page connects: their first coming was said as "back"
    page.evaluate(GIVE_STATE, {"code": "QQQQQ2", "away": [1 - me], "away_for": {1 - me: 0}})
    page.evaluate(AWAY, [])
    assert "back" not in page.locator("#announce").text_content()
    page.evaluate(AWAY, [1 - me])
    page.evaluate(AWAY, [])  # seen here once: now they come back
    assert page.locator("#announce").text_content() == f"{other} is back."
    watcher = new_page(browser, f"{server}#/t/{code}")
    watcher.wait_for_selector(".spectating")
    watcher.evaluate(GIVE_STATE, {"current": 1 - me, "legal": [], "away": [1 - me], "bots": [None, None]})
    assert watcher.locator("#stand-in-ask").count() == 0  # (the players' to ask, not a spectator's)
    watcher.evaluate(GIVE_STATE, {"match_winners": [me], "match_won_by": "Ann", "rematch": "QQQQQQ"})
    link = watcher.locator("#rematch-watch")
    assert link.inner_text() == "Watch the rematch" and link.get_attribute("href") == "#/t/QQQQQQ"
    watcher.close()


def test_a_player_whose_rematch_seat_was_taken_is_shown_the_way_to_watch_it(server, browser):
    """Refused the rematch because a newcomer took the seat while they were away, a player was
    offered "Join the rematch" again and again, with no way to watch it (only spectators had one)."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"})
    page.wait_for_selector(".your-turn")  # (nothing comes from the server while it waits for her)
    me = page.evaluate("state.seat")
    refuse = """([key, said]) => { window.fetch = async () => new Response(
        JSON.stringify({type: "error", key, message: said}), {status: 400}); }"""
    link = page.locator("#rematch-watch")
    # its free seats kept for the others: watch it, or ask again (a seat may open)
    page.evaluate(GIVE_STATE, {"match_winners": [me], "match_won_by": "Ann", "rematch": "QQQQQ1", "legal": []})
    page.evaluate(refuse, ["web_seat_taken_away", "Your seat was taken while you were away, …"])
    page.click("#rematch")
    link.wait_for()
    assert link.get_attribute("href") == "#/t/QQQQQ1" and page.locator("#rematch").count() == 1
    # full: only watch it
    page.evaluate(GIVE_STATE, {"rematch": "QQQQQQ"})
    assert link.count() == 0  # (another rematch: nothing lost there yet)
    said = "Your seat was taken while you were away, and the next match has no free seat; you can watch it."
    page.evaluate(refuse, ["web_seat_taken_full", said])
    page.click("#rematch")
    link.wait_for()
    assert link.get_attribute("href") == "#/t/QQQQQQ" and page.locator("#rematch").count() == 0
    assert page.locator("#alert").inner_text() == said
    page.close()


def test_each_hint_names_its_move_whole(server, browser):
    """A hint names the card, the player (you as "yourself") and the Guard's guess: without the guess
    a Guard's hints at one player read alike."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, players=2)
    page.wait_for_selector(".your-turn")
    page.evaluate(KEEP_WHAT_IS_SENT)  # (the hints asked for are not sent: the test gives its own)
    me, moves = page.evaluate("state.seat"), moves_shown(page)
    bot = page.evaluate(f"state.names[{1 - me}]")
    # not her turn: no hints asked for (the server refuses them, and the page said "It is not your turn.")
    page.evaluate(GIVE_STATE, {"legal": [], "current": 1 - me})
    page.check("#hints-toggle")
    page.evaluate(GIVE_STATE, {"legal": [], "current": 1 - me})
    assert page.evaluate("window.sent") == []
    legal = [entry(f"guard {1 - me} priest", "g1"), entry(f"guard {1 - me} baron", "g2"), entry(f"prince {me}", "p")]
    page.evaluate(GIVE_STATE, {"hand": [face("guard"), face("prince")], "legal": legal,
                               "blocked": {}})
    page.evaluate(GIVE_HINTS, [moves, [{"move": "g1", "text": "a", "spoken": "A", "best": False},
                                       {"move": "g2", "text": "b", "spoken": "B", "best": False},
                                       {"move": "p", "text": "c", "spoken": "C", "best": True}]])
    shown = [f"Guard → {bot}, Priest: a", f"Guard → {bot}, Baron: b", "Prince → yourself: c · best"]
    assert page.locator("#hint-list li .shown").all_inner_texts() == shown
    # to a screen reader in words ("→" was read out as "right arrow")
    assert page.locator("#hint-list li .visually-hidden").all_inner_texts() == [
        f"Guard on {bot}, name Priest: A", f"Guard on {bot}, name Baron: B", "Prince on yourself: C, best"]
    # advice for an earlier position (it came late) is not shown
    page.evaluate(GIVE_HINTS, [moves - 1, [{"move": "g1", "text": "stale", "best": True}]])
    assert page.locator("#hint-list li .shown").all_inner_texts() == shown


def test_the_log_and_hints_keep_the_width_of_a_narrow_phone_with_text_made_large(server, browser):
    """At 320 pixels with text twice as large, the log's numbered lines were indented by 70 pixels of
    the 216 left them, and words broke mid-word: on a narrow screen the numbers stand within the lines.
    The hints' figures, kept whole, widened the page to 478 pixels in Dutch ("winkans ≈ 28% ± 4", the
    belief's "Kamermeisje 11%"): they break between their parts there."""
    page = new_page(browser, server, narrow=True)
    create_table(page, "Ann", {1: "random"})
    page.wait_for_selector(".your-turn")
    page.add_style_tag(content="html { font-size: 200%; }")
    line, log = page.evaluate("""() => {
      const log = document.querySelector('ol[data-key=log]');
      return [log.querySelector('li').getBoundingClientRect().width, log.getBoundingClientRect().width];
    }""")
    assert line >= 0.9 * log, (line, log)
    page.check("#hints-toggle")
    page.wait_for_selector("#hint-list li")
    hint, hints = page.evaluate("""() => {
      const list = document.getElementById('hint-list');
      return [list.querySelector('li').getBoundingClientRect().width, list.getBoundingClientRect().width];
    }""")
    assert hint >= 0.9 * hints, (hint, hints)  # the hints' numbers within their lines too
    for lang in ("en", "nl"):
        assert layout_faults(page) == [], lang
        figures = page.locator("#hint-list .figure").all_inner_texts()
        assert figures and all(re.search(r"[≈±<>] ", figure) is None for figure in figures)  # each sign with its number
        page.click("#lang")
        page.wait_for_selector("#hint-list li:has-text('winkans')" if lang == "en" else "#hint-list li:has-text('win ')")
    assert page.locator("ol[data-key=log] li").first.evaluate("(li) => getComputedStyle(li).listStylePosition") == "inside"
    page.set_viewport_size({"width": 1024, "height": 768})  # beside them on a wider screen
    assert page.locator("ol[data-key=log] li").first.evaluate("(li) => getComputedStyle(li).listStylePosition") == "outside"


def test_the_focus_stays_on_the_second_of_two_cards_alike_when_the_table_is_drawn_again(server, browser):
    """Both Guards of a hand had one key: at each redraw (the hints come, someone leaves) the focus
    went from the second to the first, and a screen reader read the card out again."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"})
    page.wait_for_selector(".your-turn")
    page.evaluate(KEEP_WHAT_IS_SENT)
    me = page.evaluate("state.seat")
    guards = {"hand": [face("guard"), face("guard")], "blocked": {},
              "legal": [entry(f"guard {1 - me} priest"), entry(f"guard {1 - me} baron")]}
    page.evaluate(GIVE_STATE, guards)
    page.locator(".card-button").nth(1).focus()
    page.evaluate(GIVE_STATE, guards)  # drawn again, the same hand
    focused = "[...document.querySelectorAll('.card-button')].indexOf(document.activeElement)"
    assert page.evaluate(focused) == 1
    page.keyboard.press("Enter")  # chosen, then put back: the focus comes back to the card chosen
    page.wait_for_selector(".picking")
    page.keyboard.press("Escape")
    page.wait_for_selector(".picking", state="detached")
    assert page.evaluate(focused) == 1


def test_someone_coming_to_the_table_is_said(server, browser):
    """Someone taking a free seat showed only on its panel: a blind host heard nothing."""
    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {1: "", 2: "random"}, players=3)
    bob = new_page(browser, f"{server}#/t/{code}")
    bob.fill("#join input[name=name]", "Bob")
    bob.click("#join button[type=submit]")
    ann.wait_for_function("document.getElementById('announce').textContent.includes('Bob comes to the table.')")


def test_an_alert_that_says_the_same_is_not_read_out_again_at_every_state(server, browser):
    """A reason that stands (a seat's credential refused) was written into the alert anew at every
    state, each bot's move, and a screen reader read it out each time; so was "reconnecting" at
    every try. A refusal of each try is still said anew."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"})
    page.wait_for_selector(".your-turn")
    page.evaluate("""() => {
      window.writes = 0;
      new MutationObserver((changes) => { window.writes += changes.length; })
        .observe(document.getElementById("alert"), {childList: true, characterData: true, subtree: true});
      standing = {code: state.code, key: "web_bad_secret"};
    }""")
    for _ in range(3):
        page.evaluate(GIVE_STATE, {})
    assert page.locator("#alert").inner_text() == ENGLISH("web_bad_secret")
    assert page.evaluate("window.writes") == 1
    refusal = "(m) => socket.onmessage({data: JSON.stringify({type: 'error', key: 'illegal', message: m})})"
    page.evaluate(refusal, "Not your turn.")
    page.evaluate(refusal, "Not your turn.")  # the same refusal of a second try: said again
    assert page.evaluate("window.writes") == 3


def replay_step(**changed: object) -> dict[str, object]:
    """A replay's step as the server sends it (replays.frames_json): Ann and Bob, round 1, Ann to
    move, a Guard and a King in hand; with what ``changed`` says instead."""
    return {"names": ["Ann", "Bob"], "alive": [True, True], "protected": [False, False], "tokens": [0, 0],
            "hands": [[face("guard")], [face("king")]], "discards": [[], []], "face_up": [], "deck_size": 10,
            "round": 1, "current": 0, "winners": [], **changed}


def show_replay(page: Page, frames: list[dict[str, object]], target: int, result: str) -> None:
    """The page's replay of ``frames`` (of table QQQQQQ), as if the server had sent them."""
    page.evaluate("(told) => showReplay(told, {code: 'QQQQQQ'})", {"frames": frames, "target": target, "result": result})


def test_a_replay_steps_back_with_the_left_arrow_and_marks_no_one_at_the_round_end(server, browser):
    """The arrow keys step a replay both ways; once the round is won nobody is shown as playing; and
    its "Next" button stays where it is from step to step."""
    page = new_page(browser, server)
    page.wait_for_selector("#create-button")
    frames = [replay_step(turn=0, log=["dealt"]), replay_step(turn=1, current=1, log=["dealt", "one"]),
              replay_step(turn=2, winners=[1], tokens=[0, 1], log=["dealt", "one", "won"])]
    show_replay(page, frames, 1, "Match over: Bob wins.")
    next_at = [page.locator("#replay-next").bounding_box()]
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-step:has-text('Step 2 of 3')")
    next_at.append(page.locator("#replay-next").bounding_box())
    assert page.locator(".player.current h3").all_inner_texts() == ["Bob"]
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-step:has-text('Step 3 of 3')")
    assert page.locator(".player.current").count() == 0  # the round won: nobody's turn
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#replay-step:has-text('Step 2 of 3')")
    # "Next" stays under a thumb tapping it: the step's words, whose length changes, come after it
    # (the deal's "Step 1 of 3: the deal" is longer than a turn's)
    assert next_at[0] == next_at[1]


def test_forced_colours_still_mark_the_card_being_played_and_whose_turn_it_is(server, browser):
    """Windows' forced colours drop every shadow, which alone marked them: the chosen card and the
    current player's panel looked like the others."""
    page = new_page(browser, server)
    page.wait_for_selector("#create-button")
    page.emulate_media(forced_colors="active")
    show_replay(page, [replay_step(turn=1, log=["dealt"])], 1, "")
    outlines = page.evaluate("""() => {
      for (const pressed of ["true", "false"]) {  // (two cards as the hand shows them while one is played)
        const card = document.createElement("button");
        card.className = "card-button";
        card.setAttribute("aria-pressed", pressed);
        document.querySelector(".players").append(card);
      }
      const outline = (node) => getComputedStyle(node).outlineStyle;
      return [...document.querySelectorAll(".player, .card-button")].map(outline);
    }""")
    assert outlines == ["solid", "none", "solid", "none"]  # Ann's turn, Bob's panel; the card played, the other


def upgraded(route: Route) -> None:
    """An API answer as a server upgraded since the page was loaded gives it: another page's version."""
    answer = route.fetch()
    route.fulfill(response=answer, headers={**answer.headers, "x-loveletter-page": "0123456789abcdef"})


def test_a_page_left_open_across_an_upgrade_of_the_server_asks_to_be_reloaded(server, browser):
    """An older page read what a newer server sent wrongly (its replay showed nothing), and nothing
    said to reload it: the API names the page it serves, and a page finds it is not its own, in the
    lobby (its list of tables) or at a table whose connection came back."""
    for at_table in (False, True):
        page = new_page(browser, server)
        page.wait_for_selector("#create-button")
        if at_table:
            create_table(page, "Ann", {1: "random"}, target=7)
            page.wait_for_selector(".your-turn")
        page.route("**/api/**", upgraded)
        assert page.locator("#alert").is_hidden()
        if at_table:
            page.evaluate("socket.close()")  # (the server stopped, for its upgrade, and back)
        else:
            page.click("#lang")  # the lobby asks for its words, and its list of tables, again
        said = (ENGLISH if at_table else DUTCH)("web_page_updated")
        page.wait_for_selector(f"#alert:not([hidden]):has-text('{said}')")
        if at_table:  # (the table came back, its state drawn: still said)
            page.wait_for_selector(f"#announce:has-text('{ENGLISH('web_reconnected')}')")
            assert page.locator("#alert").inner_text() == said
        else:  # said until the page is reloaded: not put away by the answers after
            page.unroute_all(behavior="wait")  # (once the answers being changed are through)
            page.click("#lang")
            page.wait_for_selector(f"#alert:has-text('{ENGLISH('web_page_updated')}')")
        page.context.close()


def test_a_replay_says_every_line_of_a_new_rounds_deal(server, browser):
    """Stepping into a round, a screen reader heard only its last line ("Bob draws the Guard"): not
    who starts, the cards face up, nor the deal."""
    page = new_page(browser, server)
    page.wait_for_selector("#create-button")
    dealt = ["Round 2: Bob starts.", "Ann is dealt the Baron.", "Bob draws the Guard."]
    frames = [replay_step(turn=0, log=["dealt"]), replay_step(turn=1, winners=[0], log=["dealt", "won"]),
              replay_step(turn=0, round=2, tokens=[1, 0], log=dealt)]
    show_replay(page, frames, 2, "The record stops here.")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-step:has-text('Step 2 of 3')")
    assert page.locator("#announce").text_content() == "Step 2 of 3: round 1, turn 1. won"
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-step:has-text('Step 3 of 3')")
    assert page.locator("#announce").text_content() == " ".join(["Step 3 of 3: round 2, the deal.", *dealt, "The record stops here."])


def test_the_lobby_keeps_a_private_table_unlisted_says_why_a_table_is_refused_and_takes_a_code_typed_small(server, browser):
    ann = new_page(browser, server)
    ann.fill("#name", "Bot 1 (random)")  # a name that would pass for a bot: the server refuses it
    ann.click("#create-button")
    ann.wait_for_selector("#alert:has-text('would pass for one of the bots')")
    assert ann.locator("#players option").all_inner_texts() == ["2", "3", "4"]  # the classic edition: 2 to 4
    ann.select_option("#edition", "2019")
    assert ann.locator("#players option").all_inner_texts() == ["2", "3", "4", "5", "6"]
    ann.select_option("#edition", "classic")
    ann.check("input[name=private]")
    code = create_table(ann, "Ann", {1: ""})
    visitor = new_page(browser, server)
    visitor.wait_for_selector("#open-tables li")
    assert code not in visitor.locator("#open-tables").inner_text()
    # copied with a space before it (the field's length limit cut its last letter), or the whole link
    for typed in (f" {code}", f"http://example.org/#/t/{code}."):  # (a full stop of the chat's after it)
        visitor.fill("#code", typed)
        visitor.click("#join-code button[type=submit]")
        visitor.wait_for_selector("#join input[name=name]")
        assert visitor.evaluate("location.hash") == f"#/t/{code}"
        visitor.goto(server)
        visitor.wait_for_selector("#code")
    # what holds no code is told at the field, the page where it was (it went to the lobby, unsaid)
    for typed, says in (("Join me at the table", "web_no_table"), ("  ", "web_check_missing")):
        visitor.fill("#code", typed)
        visitor.click("#join-code button[type=submit]")
        assert visitor.eval_on_selector("#code", "(field) => field.validationMessage") == ENGLISH(says)
        assert visitor.evaluate("location.hash") in ("", "#/")
    visitor.fill("#code", code.lower())
    visitor.click("#join-code button[type=submit]")
    visitor.wait_for_url(re.compile(rf"#/t/{code}$"))  # as the page names its tables: reconnect compares it
    visitor.wait_for_selector("#join input[name=name]")
    focused = "document.activeElement.id || document.activeElement.name || document.activeElement.tagName"
    visitor.wait_for_function(f"({focused}) === 'name'")  # on to the name (it fell to the page itself)
    bob = new_page(browser, f"{server}#/t/{code}")
    bob.fill("#join input[name=name]", "Bob")
    bob.click("#join button[type=submit]")
    visitor.wait_for_selector("#join", state="detached")  # the last seat taken: the form went
    visitor.wait_for_function(f"({focused}) === 'status-title'")
    # its panel shows where the focus is (a keyboard's user saw none), the heading still hidden: shown
    # while it had the focus, it folded away at a tap on the replay's link, which moved up before the
    # tap landed (the tap missed it)
    assert visitor.eval_on_selector(".status", "(panel) => getComputedStyle(panel).outlineStyle") == "solid"
    assert visitor.locator("#status-title").bounding_box()["width"] <= 1  # type: ignore[index]
    panel = visitor.locator(".status").bounding_box()
    visitor.mouse.click(panel["x"] + panel["width"] - 5, panel["y"] + 5)  # type: ignore[index]  # (a tap elsewhere)
    visitor.wait_for_function(f"({focused}) !== 'status-title'")
    assert visitor.locator(".status").bounding_box() == panel  # nothing moved
    assert visitor.eval_on_selector(".status", "(panel) => getComputedStyle(panel).outlineStyle") == "none"
    bob.close()
    visitor.goto(server)
    visitor.fill("#code", "ZZZZZZ")  # no such table: back in the lobby, on the code to type again
    visitor.keyboard.press("Enter")
    visitor.wait_for_selector("#alert:not([hidden])")
    visitor.wait_for_function(f"({focused}) === 'code'")


def test_a_seat_credential_refused_is_forgotten_and_the_table_watched(server, browser):
    """A credential the table does not know (a table's code used again, say) must be forgotten: kept,
    it was sent at every reconnect, refused each time, and the page never showed the table. The
    page says why it watches. A spectator is offered a free seat only where it is open."""
    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {1: "random"})
    visitor = new_page(browser, server)
    visitor.evaluate(f"localStorage.setItem('ll-seat-{code}', 'not-a-credential')")
    visitor.goto(f"{server}#/t/{code}")
    visitor.wait_for_selector(".spectating")
    assert visitor.evaluate(f"localStorage.getItem('ll-seat-{code}')") is None
    # and says why it watches (the reconnection's notice, then the table's state, wiped the reason)
    assert visitor.locator("#alert").inner_text() == "This seat credential is not valid for this table."
    # at another table, no more (it came back there where the page had no state as it left: a watcher
    # refused for a crowd, say)
    other = create_table(new_page(browser, server), "Bob", {1: "random"})
    visitor.evaluate("state = null")
    visitor.goto(f"{server}#/t/{other}")
    visitor.wait_for_function(f"state !== null && state.code === '{other}'")
    assert visitor.locator("#alert").inner_text() == ""
    # a seat free but kept (at a rematch, for the last match's player): told so, and no form to join
    # nor anyone to invite
    visitor.evaluate(GIVE_STATE, {"free_seats": [1], "open_seats": []})
    assert visitor.locator(".status .kept").count() == 1 and visitor.locator("#join").count() == 0
    assert visitor.locator("#invite").count() == 0
    visitor.evaluate(GIVE_STATE, {"free_seats": [1], "open_seats": [1]})
    assert visitor.locator(".status .kept").count() == 0 and visitor.locator("#join").count() == 1
    assert visitor.locator("#invite").count() == 1


def test_a_move_refused_leaves_the_player_free_to_make_another(server, browser):
    """One move per state is sent (a double click); a move the server refuses must not keep the
    player from making another in that state."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, target=7)
    page.wait_for_selector(".your-turn")
    page.evaluate("send('not-a-move')")
    page.wait_for_selector("#alert:not([hidden])")
    assert page.locator("#alert").inner_text()
    play_one_move(page)  # (waits until the move is made)


def test_back_from_a_table_to_the_lobby_keeps_the_focus_and_says_nothing_of_the_table(server, browser):
    """The browser's Back from a table left the focus on the page itself, and the table's last news
    ("Your turn") in the status region, which a screen reader found at the top of the lobby."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, target=7)
    page.wait_for_selector(".your-turn")
    assert page.locator("#announce").inner_text()  # (the table's news, said)
    page.route("**/api/tables", lambda route: None)  # the lobby's list never answers: the focus moves before it
    page.go_back()
    page.wait_for_selector("main[data-view=lobby]")
    assert page.evaluate("document.activeElement.id") == "create-title"
    assert page.locator("#announce").inner_text() == ""
    page.unroute("**/api/tables")
    page.evaluate("cutOff = true")  # (as a table left before its first state came, its connection lost)
    create_table(page, "Bob", {1: "random"}, target=7)  # the next table is not "Connected again."
    page.wait_for_selector(".hand .card")
    assert not page.locator("#announce").inner_text().startswith("Connected again")


def test_a_move_lost_with_a_dropped_connection_may_be_made_again(server, browser):
    """One move is sent per state; a move sent as the connection dropped, and lost with it, must not
    keep the player from moving once the page has reconnected to the same state (and is said to
    have been lost)."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, target=7)
    page.wait_for_selector(".your-turn")
    page.evaluate("sentAt = state.moves; socket.close()")  # as if the move went out as it dropped
    page.wait_for_selector("#alert:has-text('reconnecting')")
    page.wait_for_selector("#alert:has-text('Your last move did not reach the table: play it again.')")
    play_one_move(page)  # (waits until the move is made)


def no_network(closes: bool = True) -> str:
    """A script that takes the page's network away: every connection it makes from now on fails, or
    with ``closes`` false hangs, neither open nor closed (counted in ``tries``; the browser's own kept
    as ``RealWebSocket``). Never open, the page's pulse leaves it alone; its close, if the page has let
    it go meanwhile, goes unheard."""
    closing = "setTimeout(() => this.onclose?.({ code: 1006 }), 0);" if closes else ""
    return f"""() => {{ window.tries = 0; window.RealWebSocket = window.WebSocket;
        window.WebSocket = class {{ static OPEN = 1; readyState = 0;
            constructor() {{ window.tries++; {closing} }} send() {{}} close() {{}} }};
        socket.close(); }}"""


NO_NETWORK = no_network()


def test_a_page_that_cannot_reconnect_keeps_asking_at_least_every_twenty_seconds(server, browser):
    """The wait between tries doubles, up to 19.2 seconds: a server away for a while is found again
    soon after it is back (not minutes later)."""
    page = table_on_the_tests_clock(browser, server, ".hand .card")
    page.evaluate(NO_NETWORK)
    page.wait_for_selector("#alert:has-text('reconnecting')")
    page.clock.run_for(300_000)  # five minutes: tries after 0.6, 1.2, 2.4, 4.8, 9.6 s, then every 19.2 s
    assert page.evaluate("window.tries") >= 15


@pytest.mark.parametrize("back", ["window.dispatchEvent(new Event('online'))",
                                  "document.dispatchEvent(new Event('visibilitychange'))"])
def test_a_page_back_on_a_network_or_shown_again_connects_at_once(server, browser, back):
    """Back online (a phone out of a tunnel) or shown again, the page only asked whether a connection
    held, and there was none: the table stayed on "reconnecting…" until the next try, up to 19.2 s later."""
    page = table_on_the_tests_clock(browser, server)
    page.evaluate(NO_NETWORK)
    page.wait_for_selector("#alert:has-text('reconnecting')")
    page.clock.run_for(60_000)  # tries after 0.6, 1.2, 2.4, 4.8, 9.6 and 19.2 s: the next 19.2 s on
    # the network back: a connection made at once, not at the next try
    assert page.evaluate(f"() => {{ window.tries = 0; window.WebSocket = class extends window.RealWebSocket {{"
                         f" constructor(...args) {{ super(...args); window.tries++; }} }}; {back}; return window.tries; }}") == 1
    page.wait_for_selector("#alert:empty", state="attached")
    page.wait_for_selector(".your-turn")
    assert page.locator("#announce").inner_text().startswith("Connected again.")


def test_a_page_back_on_a_network_gives_up_a_try_that_hangs_and_tries_again(server, browser):
    """A try made on a dead network may hang until the system gives it up: back online, the page
    only asked whether the connection held, and it held nothing."""
    page = table_on_the_tests_clock(browser, server)
    page.evaluate(no_network(closes=False))  # every try from now on hangs, neither open nor closed
    page.wait_for_selector("#alert:has-text('reconnecting')")
    page.clock.run_for(1_000)  # the first try, after 0.6 s
    assert page.evaluate("window.tries") == 1
    assert page.evaluate("() => { window.dispatchEvent(new Event('online')); return window.tries; }") == 2


@pytest.mark.parametrize("after", [").", "%20", "/", ".%29", ")%20see%20you"])
def test_an_invitation_with_what_a_chat_put_after_it_opens_the_table(server, browser, after):
    """A link copied from a chat with a full stop, a bracket or a space after its code opened the
    lobby, unsaid (the code field already read such a link)."""
    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {})
    friend = new_page(browser, f"{server}#/t/{code.lower()}{after}")
    friend.wait_for_selector("#join input[name=name]")
    assert friend.evaluate("location.hash") == f"#/t/{code}"
    ann.context.close()
    friend.context.close()


# (no code at all, or one longer than any; to a table, or to its replay; a replay's code of no table,
# which left the page blank but for the alert, the focus on the page itself)
@pytest.mark.parametrize("link", ["t/%29.", "t/ABCDEFGHIJKLM", "replay/).", "replay/ZZZZZZ"])
def test_a_table_link_with_no_code_in_it_is_said_so_in_the_lobby(server, browser, link):
    page = new_page(browser, f"{server}#/{link}")
    page.wait_for_selector("#alert:has-text('There is no table with this code')")
    page.wait_for_selector("#create")
    assert page.evaluate("location.hash") == "#/"
    assert page.evaluate("document.activeElement.id") == "code"  # to be typed, as when the server finds none
    page.context.close()


def test_a_replay_link_the_server_cannot_be_reached_for_is_kept_to_be_tried_again(server, browser):
    """Refused, a replay's link leads to the lobby, saying why; out of reach, it is kept (the lobby's
    address would open the lobby again where a reload should try the replay)."""
    page = new_page(browser, server)
    page.wait_for_selector("#create-button")
    page.route("**/api/tables/ABCDEF/replay*", lambda route: route.abort())
    page.goto(f"{server}#/replay/ABCDEF")
    page.wait_for_selector("#alert:not([hidden]):has-text('cannot be reached')")
    page.wait_for_timeout(300)
    assert page.evaluate("location.hash") == "#/replay/ABCDEF"
    page.context.close()


def test_a_refusal_put_away_stays_away_when_the_language_changes(server, browser):
    """Said again in the language chosen, a refusal put away (Escape) came back."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, target=7)
    page.wait_for_selector(".your-turn")
    page.evaluate("tell({ type: 'move', move: 'dragon 1', at: state.moves })")
    page.wait_for_selector("#alert:has-text('unknown card')")
    page.keyboard.press("Escape")
    page.wait_for_selector("#alert", state="hidden")
    page.click("#lang")
    page.wait_for_function("alerted.includes('onbekende kaart')")  # (worded anew, and kept away)
    assert page.locator("#alert").is_hidden()


@pytest.mark.parametrize("key", ["web_table_unreadable", "web_foreign_origin"])
def test_a_refusal_that_may_be_mended_stays_said_and_is_asked_for_again_later(server, browser, key):
    """The server refused the table's connection (its stored rows cannot be read just now; or taken
    for another site's page's, behind a proxy that does not pass the host the page asked for), and
    the page put its reason away at once for "Connection lost: reconnecting…", asked again and again."""
    page = table_on_the_tests_clock(browser, server)
    page.evaluate("""(key) => { socket.onmessage({ data: JSON.stringify({ type: "error", key,
                                                                         message: "Refused just now." }) });
                                socket.close(); }""", key)
    page.wait_for_function("socket.readyState === WebSocket.CLOSED")
    page.clock.run_for(5_000)  # (past the first tries to connect again after a close, 0.6 and 1.2 s)
    assert page.locator("#alert").inner_text() == "Refused just now."
    page.clock.run_for(30_000)  # asked for again: here the table is there
    page.wait_for_selector("#alert:empty", state="attached")
    page.wait_for_selector(".your-turn")


def test_a_move_not_sent_stays_said_while_the_page_tries_to_connect_again(server, browser):
    """Said, "Your move was not sent: play it again once the connection is back" was put away by the
    next try to connect that failed, and "Connection lost" read out again alone."""
    page = table_on_the_tests_clock(browser, server)
    page.evaluate(NO_NETWORK)  # every connection from now on fails (never open: nothing is sent on one)
    page.wait_for_selector("#alert:has-text('reconnecting')")
    page.evaluate("send(state.legal[0].move)")
    not_sent = "Your move was not sent: play it again once the connection is back. Connection lost: reconnecting…"
    assert page.locator("#alert").inner_text() == not_sent
    page.clock.run_for(10_000)  # tries after 0.6, 1.2, 2.4 and 4.8 s
    assert page.locator("#alert").inner_text() == not_sent


def test_the_focus_on_a_card_no_longer_playable_moves_to_the_hand(server, browser):
    """(The news of the move is the new line alone.) A redraw puts the focus back on the control that had it, unless that one is now disabled: then
    on the next step (here the hand's heading), not dropped to the page."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, target=7)
    page.wait_for_selector(".your-turn")
    page.evaluate(KEEP_WHAT_IS_SENT)
    page.locator(".card-button:not([disabled])").first.focus()
    log = [*page.evaluate("state.log"), "Bot 1 plays."]
    page.evaluate(GIVE_STATE, {"legal": [], "current": 1 - page.evaluate("state.seat"), "log": log})
    assert page.evaluate("document.activeElement.id") == "hand-title"
    # and a screen reader hears the new line only, not the round again
    assert page.locator("#announce").text_content() == "Bot 1 plays."


def test_a_link_typed_in_small_letters_opens_your_seat_and_another_table_clears_the_last(server, browser):
    """The page names a table in capitals, as the server does: your seat is found by that name from a
    link typed in small letters. Going on to another table, the last one's cards go at once (they
    stayed, live, until the new table's state came, or for ever if it was refused)."""
    ann = new_page(browser, server)
    code = create_table(ann, "Ann", {1: "random"})
    other = create_table(new_page(browser, server), "Bob", {1: "random"})
    tab = ann.context.new_page()  # Ann's, at her table's link typed in small letters
    tab.set_default_timeout(15_000)
    tab.goto(f"{server}#/t/{code.lower()}")
    tab.wait_for_selector(".hand .card")
    assert tab.locator(".spectating").count() == 0
    # its connection dropped, it connects again (the link was compared with the code in capitals: it
    # never did, and "reconnecting" stayed for good)
    assert tab.evaluate("location.hash") == f"#/t/{code}"
    tab.evaluate("socket.close()")
    tab.wait_for_function("socket.readyState === WebSocket.OPEN && !document.getElementById('alert').textContent")
    tab.wait_for_selector(".hand .card")
    left = ann.evaluate("""async (code) => {
        const changed = new Promise((done) => addEventListener("hashchange", done, { once: true }));
        location.hash = `#/t/${code}`;
        await changed;  // (the page's own listener ran first)
        return [document.querySelectorAll(".card-button").length, state];
    }""", other)
    assert left == [0, None]
    ann.wait_for_selector(".spectating")  # Bob's table, watched


def test_the_hints_box_ticked_while_reconnecting_fails_nothing(server, browser):
    """Ticked while the page connects again, the box asked a socket still connecting for hints: the
    browser threw (InvalidStateError) and the page was not drawn again. They are asked for once the
    state comes."""
    page = new_page(browser, server)
    create_table(page, "Ann", {1: "random"}, target=7)
    page.wait_for_selector(".your-turn")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.evaluate("""() => {
        window.WebSocket = class {  // a connection that stays connecting, as a browser's does a while
            static OPEN = 1;
            constructor() { this.readyState = 0; }
            send() { throw new DOMException("Still in CONNECTING state.", "InvalidStateError"); }
            close() {}
        };
        socket.close(); }""")
    page.wait_for_function("socket.readyState === 0")  # the page connecting again
    page.check("#hints-toggle")
    page.wait_for_timeout(200)  # (an error would be reported by now)
    assert errors == [] and page.evaluate("localStorage.getItem('ll-hints')") == "on"
