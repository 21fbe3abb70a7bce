"""The Learn page in real headless Chromium: load, step forward and back, α/β change, the answer hidden until the
end, controls that stay in view, the app's navigation bar, a phone-sized screen, errors as the server sent them,
and the exercises; in Greek for a Greek browser, with the EL/EN switch.  Screenshots go to test-artifacts/teach/
(1280x860 and 390x844)."""

from __future__ import annotations

from pathlib import Path

import pytest

from plies.teach.quiz import Quiz, make_quiz

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "teach"


def open_page(browser, live_server, width: int = 1280, height: int = 860, locale: str = "en-US",
              path: str = "/learn"):
    """The page at ``path``, its tree drawn, in a browser context of its own; ``pg.errors``: its JavaScript errors."""
    pg = browser.new_page(viewport={"width": width, "height": height}, locale=locale)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(live_server + path)
    pg.wait_for_selector("#tree-svg g.node")
    pg.errors = errors
    return pg


def new_exercise(page, seed: int = 5) -> Quiz:
    """The 3x2 exercise of ``seed`` asked for on the page and drawn; the same exercise made here."""
    page.select_option("#quiz-shape", "3x2")
    page.fill("#quiz-seed", str(seed))
    page.click("#quiz-new")
    page.wait_for_selector("#quiz-questions:not([hidden])")
    page.wait_for_function("document.getElementById('tree-svg').querySelectorAll('g.node').length === 13")
    return make_quiz(seed, "3x2")


@pytest.fixture(scope="module")
def page(browser, live_server):
    pg = open_page(browser, live_server)
    yield pg
    pg.close()


def text(page, sel: str) -> str:
    return page.locator(sel).inner_text().strip()


def shot(page, name: str, full: bool = False) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=full)


def in_view(page, sel: str) -> bool:
    return page.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth; }""", sel)


def test_page_steps_forward_and_back(page) -> None:
    assert page.locator("#tree-svg g.node").count() == 13           # document 000: A, B, C, D + 9 leaves
    assert text(page, "#step-count").startswith("0 /")
    page.wait_for_timeout(300)
    assert text(page, "#step-count").startswith("0 /")                   # no autoplay
    # the answer (and what is pruned) is hidden at the start
    assert "MAX chooses" not in text(page, "#answer") and "pruned" not in text(page, "#answer")
    assert page.locator("#show-answer").is_visible()
    shot(page, "learn-1280-start.png")
    total = int(text(page, "#step-count").split("/")[1])
    # forward to document 000's cut-off at C: the condition appears, 2 leaves are marked pruned
    for _ in range(9):
        page.click("#step-next")
    assert "α cut-off at C: α=3 ≥ β=2" in text(page, "#condition")
    assert text(page, "#alpha") == "3" and text(page, "#beta") == "2"              # β fell to 2, then α ≥ β
    assert page.locator("#tree-svg g.edge text.move").count() == 12                # a1 … d3 on the edges
    assert page.locator("#tree-svg g.node.pruned").count() == 2
    assert page.locator("#tree-svg g.edge.pruned text.cross").count() == 2
    assert "MAX chooses" not in text(page, "#answer")
    shot(page, "learn-1280-cutoff.png")
    # back: entering C with α=3; A after B returned 3; B after its last leaf (β has dropped to 3)
    page.click("#step-prev")
    page.click("#step-prev")
    assert text(page, "#step-count") == f"7 / {total}"
    assert text(page, "#current").startswith("C") and text(page, "#alpha") == "3"
    page.click("#step-prev")
    assert text(page, "#alpha") == "3" and text(page, "#beta") == "+∞"
    page.click("#step-prev")
    assert text(page, "#alpha") == "−∞" and text(page, "#beta") == "3"
    assert page.locator("#tree-svg g.node.pruned").count() == 0
    assert text(page, "#condition") == "—"
    # the last step: the principal path is highlighted and the answer shown
    page.click("#step-last")
    assert text(page, "#step-count") == f"{total} / {total}"
    assert page.locator("#tree-svg g.node.pv").count() == 3                # A, B, B's first leaf
    assert "MAX chooses B" in text(page, "#answer") and "pruned: [1,1], [1,2]" in text(page, "#answer")
    assert not page.locator("#show-answer").is_visible()
    assert page.locator("#download").get_attribute("href").startswith("blob:")
    shot(page, "learn-1280-end.png")
    assert not page.errors


def test_show_answer_button(page) -> None:
    page.select_option("#preset", "doc002")
    page.wait_for_function("document.getElementById('tree-svg').querySelectorAll('g.node').length === 19")
    assert "δ" not in text(page, "#answer")
    page.click("#show-answer")
    assert "MAX chooses δ" in text(page, "#answer") and "ιδ, η" in text(page, "#answer")
    assert text(page, "#step-count").startswith("0 /")                   # showing the answer moves no step


def test_controls_stay_in_view(page) -> None:
    page.select_option("#preset", "doc002")
    page.wait_for_function("document.getElementById('step-count').textContent.startsWith('0 /')")
    page.evaluate("window.scrollTo(0, 0)")
    for i in range(25):
        page.click("#step-next")
        assert in_view(page, "#step-next"), f"the forward button left the screen after {i + 1} clicks"
    assert page.evaluate("window.scrollY") == 0                           # the log scrolled itself, not the page
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")        # scrolled down: still there (sticky)
    assert in_view(page, "#step-next") and in_view(page, "#alpha")
    page.click("#step-next")
    shot(page, "learn-1280-scrolled.png")
    page.evaluate("window.scrollTo(0, 0)")


def test_nav_bar_and_favicon(page, live_server) -> None:
    links = {a.get_attribute("href"): a.inner_text() for a in page.locator("header.top a").all()}
    assert links["./"] == "plies" and links["./#/"] == "New game" and links["./#/history"] == "History"
    assert page.locator("header.top a[aria-current=page]").inner_text() == "Learn"
    icon = page.evaluate("document.querySelector('link[rel=icon]').href")
    r = page.request.get(icon)
    assert r.status == 200 and r.headers["content-type"].startswith("image/svg+xml") and b"<svg" in r.body()


def test_edit_leaf_changes_answer(page) -> None:
    page.select_option("#preset", "doc000")
    page.wait_for_function("document.getElementById('tree-svg').querySelectorAll('g.node').length === 13")
    page.click("#step-last")
    assert "value 3, MAX chooses B" in text(page, "#answer")
    # make D's middle leaf 9 and its last 7: D = 7 > 3, so MAX now chooses D
    page.fill("#leaf-r\\.2\\.1", "9")
    page.press("#leaf-r\\.2\\.1", "Enter")
    page.fill("#leaf-r\\.2\\.2", "7")
    page.press("#leaf-r\\.2\\.2", "Enter")
    page.wait_for_function("document.getElementById('answer').textContent.includes('value 7')")
    assert "MAX chooses D" in text(page, "#answer")
    assert text(page, "#step-count").split(" / ")[0] == text(page, "#step-count").split(" / ")[1]   # still at the end
    assert page.locator("#tree-svg g.node.pv").count() == 3
    assert page.locator("#step-last").is_disabled() and page.locator("#step-next").is_disabled()
    shot(page, "learn-1280-edited.png")
    assert not page.errors


def test_quick_edits_are_not_lost(page) -> None:
    """Two leaf edits whose replies come back in reverse order, and a value typed while a reply is in flight."""
    page.select_option("#preset", "doc002")                   # a fresh copy of document 000's tree
    page.wait_for_function("document.getElementById('tree-svg').querySelectorAll('g.node').length === 19")
    page.select_option("#preset", "doc000")
    page.wait_for_function("document.getElementById('tree-svg').querySelectorAll('g.node').length === 13")
    page.click("#step-last")
    held: list = []
    page.route("**/api/learn/trace", lambda route: held.append(route))
    page.fill("#leaf-r\\.2\\.1", "9")
    page.press("#leaf-r\\.2\\.1", "Enter")
    page.fill("#leaf-r\\.2\\.2", "7")
    page.press("#leaf-r\\.2\\.2", "Enter")
    for _ in range(100):
        if len(held) >= 2:
            break
        page.wait_for_timeout(20)
    page.fill("#leaf-r\\.2\\.0", "8")                 # typed, not yet entered, while both replies are out
    held[1].continue_()                                   # the later request (both edits) answers first ...
    page.wait_for_function("document.getElementById('answer').textContent.includes('value 7')")
    held[0].continue_()                                   # ... and the earlier one's late answer is dropped
    page.wait_for_timeout(300)
    page.unroute("**/api/learn/trace")
    assert "value 7, MAX chooses D" in text(page, "#answer")
    assert page.input_value("#leaf-r\\.2\\.0") == "8"     # what the user was typing is still there
    assert page.input_value("#leaf-r\\.2\\.2") == "7"
    page.press("#leaf-r\\.2\\.0", "Enter")
    page.wait_for_function("document.getElementById('answer').textContent.includes('value 7')")
    assert "MAX chooses D" in text(page, "#answer")
    assert not page.errors


def test_greek_exercise_and_minimax(page) -> None:
    page.select_option("#preset", "doc002")
    page.wait_for_function("document.getElementById('tree-svg').querySelectorAll('g.node').length === 19")
    page.click("#step-last")
    assert "δ" in text(page, "#answer")
    assert page.locator("#tree-svg g.node.pruned").count() == 4          # ιδ, and η with ιστ and ιζ
    shot(page, "learn-1280-doc002.png")
    page.select_option("#algo", "minimax")
    page.wait_for_function("document.getElementById('step-count').textContent.startsWith('0 /')")
    page.click("#step-last")
    assert text(page, "#answer").startswith("minimax")
    assert page.locator("#tree-svg g.node.pruned").count() == 0
    assert text(page, "#alpha") == "—"
    page.select_option("#algo", "alphabeta")
    page.wait_for_function("document.getElementById('step-count').textContent.startsWith('0 /')")
    assert not page.errors


def test_own_tree_and_bad_input(page) -> None:
    page.click("details summary")
    page.fill("#tree-json", "[[1, 2], [")
    page.click("#tree-load")
    assert page.locator("#error").is_visible() and "not JSON" in text(page, "#error")
    page.fill("#tree-json", "[[1, 2], []]")
    page.click("#tree-load")
    page.wait_for_function("document.getElementById('error').textContent.includes('at least one child')")
    assert text(page, "#error") == "a tree node needs at least one child"       # the server's words, as sent
    page.fill("#tree-json", '{"label": "ρίζα", "children": [[4, 10, 7], [5, -1, 6]]}')
    page.click("#tree-load")
    page.wait_for_function("document.getElementById('tree-svg').querySelectorAll('g.node').length === 9")
    assert not page.locator("#error").is_visible()
    page.click("#step-last")
    assert "value 4" in text(page, "#answer")
    assert page.locator("#tree-svg g.node.pruned").count() == 1                  # the slide's third leaf
    shot(page, "learn-1280-own-tree.png")
    page.click("details summary")
    assert not page.errors


def test_server_errors_shown_as_sent(page) -> None:
    page.route("**/api/learn/trace", lambda route: route.fulfill(
        status=503, content_type="application/json", body='{"detail": "the teaching server is resting"}'))
    page.select_option("#algo", "minimax")
    page.wait_for_function("!document.getElementById('error').hidden")
    assert text(page, "#error") == "the teaching server is resting"
    page.unroute("**/api/learn/trace")
    page.route("**/api/learn/trace", lambda route: route.fulfill(status=500, content_type="text/plain",
                                                                  body="Internal Server Error"))
    page.select_option("#algo", "alphabeta")
    page.wait_for_function("document.getElementById('error').textContent.includes('500')")
    assert "Internal Server Error" in text(page, "#error")
    page.unroute("**/api/learn/trace")
    page.select_option("#preset", "doc000")
    page.wait_for_function("document.getElementById('error').hidden")


def test_exercise_on_the_page(page) -> None:
    q = new_exercise(page)
    assert page.locator("#quiz-list .q").count() == 4
    assert "seed 5" in text(page, "#note")
    assert "MAX chooses" not in text(page, "#answer")                      # no answer given away
    answers = {x.kind: x.answer for x in q.questions}
    page.fill("#quiz-value", answers["value"])
    page.fill("#quiz-move", answers["move"].lower())
    page.fill("#quiz-order", "nonsense")
    # mark the pruned leaves by clicking them in the tree
    for label in answers["pruned"].split():
        leaf = next(n for n in q.trace.nodes.values() if n.label == label)
        page.click(f"#tree-svg g.node[data-id='{leaf.id}']")
    assert page.input_value("#quiz-pruned") == answers["pruned"]
    assert page.locator("#tree-svg g.node.marked").count() == len(answers["pruned"].split())
    page.click("#quiz-check")
    page.wait_for_function("document.getElementById('quiz-score').textContent.includes('of 4')")
    assert text(page, "#quiz-score").startswith("3 of 4 right")
    assert text(page, "#verdict-value").startswith("✓") and text(page, "#verdict-pruned").startswith("✓")
    assert text(page, "#verdict-order").startswith("✗") and "NONSENSE" in text(page, "#verdict-order")
    page.locator("#quiz-score").scroll_into_view_if_needed()
    shot(page, "learn-1280-exercise.png")
    page.fill("#quiz-order", answers["order"])
    page.click("#quiz-check")
    page.wait_for_function("document.getElementById('quiz-score').textContent.startsWith('4 of 4')")
    # a bad seed is refused with the server's reason
    page.fill("#quiz-seed", "-3")
    page.click("#quiz-new")
    page.wait_for_function("!document.getElementById('error').hidden")
    assert "seed" in text(page, "#error")
    assert not page.errors


def test_phone_screen(browser, live_server) -> None:
    pg = open_page(browser, live_server, 390, 844)
    try:
        # nothing sticks out sideways except the picture, which scrolls inside its own box
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        for sel in ("#preset", "#algo", "#order", "#step-next", "#step-last", "header.top nav"):
            box = pg.locator(sel).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, sel
        # the whole tree in sight (no node beyond the edge), its words drawn larger so that they stay readable
        picture = pg.locator("#picture").bounding_box()
        for node in pg.locator("#tree-svg .node .shape").all():
            b = node.bounding_box()
            assert picture["x"] <= b["x"] and b["x"] + b["width"] <= picture["x"] + picture["width"] <= 390
        name_px = pg.locator("#tree-svg .node text").first.evaluate(
            "(t) => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getBoundingClientRect().width"
            " / t.ownerSVGElement.viewBox.baseVal.width")
        assert name_px >= 9.5
        shot(pg, "learn-390-start.png")
        pg.select_option("#preset", "doc002")
        pg.wait_for_function("document.getElementById('tree-svg').querySelectorAll('g.node').length === 19")
        for _ in range(9):
            pg.click("#step-next")
        assert in_view(pg, "#step-next") and "β cut-off at στ" in text(pg, "#condition")
        font = pg.evaluate("""() => { const t = document.querySelector('#tree-svg .note-text');
            return t.getBoundingClientRect().height; }""")
        assert font >= 9
        shot(pg, "learn-390-cutoff.png")
        # the picture follows the current node sideways: στ is in sight
        cur = pg.locator("#tree-svg g.node.current").bounding_box()
        assert cur["x"] >= 0 and cur["x"] + cur["width"] <= 390
        pg.click("#step-last")
        root = pg.locator("#tree-svg g.node[data-id='r']").bounding_box()
        assert root["x"] >= 0 and root["x"] + root["width"] <= 390
        shot(pg, "learn-390-end.png")
        pg.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        assert in_view(pg, "#step-next")
        shot(pg, "learn-390-bottom.png")
        assert not pg.errors
    finally:
        pg.close()


def test_exercise_mode_keeps_the_answer_hidden(browser, live_server) -> None:
    pg = open_page(browser, live_server, path="/learn?mode=exercise")
    assert not pg.locator("#show-answer").is_visible()                   # no "Show answer" in exercise mode
    assert "Leave exercise mode" in text(pg, "#mode-link")
    q = new_exercise(pg)
    # the buttons are disabled once the exercise's tree is drawn (a wait: a busy host draws late)
    pg.wait_for_function("['step-next', 'step-last'].every(b => document.getElementById(b).disabled)")
    pg.keyboard.press("End")                                              # no stepping by the keyboard either
    assert text(pg, "#step-count").startswith("0 /") and "Exercise mode" in text(pg, "#answer")
    assert pg.locator("#leaves input").first.is_disabled() and not pg.locator("#download").is_visible()
    answers = {x.kind: x.answer for x in q.questions}
    pg.fill("#quiz-value", answers["value"])
    pg.fill("#quiz-move", "nonsense")
    pg.click("#quiz-check")
    pg.wait_for_function("document.getElementById('quiz-score').textContent.includes('of')")
    assert text(pg, "#verdict-move") == "✗ not right yet" and text(pg, "#verdict-value") == "✓ right"
    assert answers["move"] not in text(pg, "#quiz-questions").replace("nonsense", "")
    assert pg.locator("#step-next").is_disabled()
    for kind in ("move", "order", "pruned"):
        pg.fill(f"#quiz-{kind}", answers[kind])
    pg.click("#quiz-check")
    pg.wait_for_function("document.getElementById('quiz-score').textContent.startsWith('4 of 4')")
    assert not pg.locator("#step-next").is_disabled()                    # right: the search opens
    pg.click("#step-last")
    assert "MAX chooses" in text(pg, "#answer")
    shot(pg, "learn-1280-exercise-mode.png")
    assert not pg.errors
    pg.close()


def overflowing(page) -> list[str]:
    """Controls whose text does not fit in them, and a page wider than the screen."""
    return page.evaluate("""() => {
        const bad = [...document.querySelectorAll('button, label, select, h1, h2, summary, .key, nav a')]
          .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
          .map((e) => e.id || e.textContent.trim().slice(0, 30));
        if (document.documentElement.scrollWidth > window.innerWidth) bad.push('the page is wider than the screen');
        return bad; }""")


@pytest.mark.parametrize("width, height", [(1280, 860), (390, 844)])
def test_greek_page_follows_the_browser_and_switches(browser, live_server, width, height) -> None:
    pg = open_page(browser, live_server, width, height, locale="el-GR")
    assert pg.evaluate("document.documentElement.lang") == "el"
    assert text(pg, "h1") == "Minimax και άλφα-βήτα, βήμα βήμα"
    assert text(pg, "#nav-learn") == "Μάθηση" and text(pg, "#show-answer") == "Δείξε την απάντηση"
    assert text(pg, "#step-text") == "Πάτησε «μπροστά» για να ξεκινήσει η αναζήτηση."
    assert pg.locator(".lang-switch button[data-lang=el]").get_attribute("aria-pressed") == "true"
    assert pg.locator("#step-first").get_attribute("title") == "πρώτο βήμα (Home)"
    assert "Έγγραφο 000" in pg.locator("#preset option:checked").inner_text()
    for _ in range(9):
        pg.click("#step-next")
    assert text(pg, "#condition").startswith("κλάδεμα α στον κόμβο C: α=3 ≥ β=2")
    assert text(pg, "#current") == "C (MIN)"
    shot(pg, f"learn-el-{width}-cutoff.png")
    pg.click("#quiz-new")
    pg.wait_for_selector("#quiz-questions:not([hidden])")
    assert text(pg, "#prompt-value").startswith("Ποια είναι η τιμή της ρίζας")
    assert overflowing(pg) == []
    shot(pg, f"learn-el-{width}.png", full=True)
    # to English: the page, the server's words, the exercise's questions; kept for the next visit
    pg.click(".lang-switch button[data-lang=en]")
    pg.wait_for_function("document.getElementById('prompt-value').textContent.startsWith('What is')")
    assert text(pg, "h1") == "Minimax and alpha-beta, step by step" and text(pg, "#quiz-new") == "New exercise"
    assert pg.evaluate("document.documentElement.lang") == "en"
    pg.reload()
    pg.wait_for_selector("#tree-svg g.node")
    assert text(pg, "h1") == "Minimax and alpha-beta, step by step"          # the choice outlives the visit
    assert pg.evaluate("localStorage.getItem('plies.lang')") == "en"
    for _ in range(9):
        pg.click("#step-next")
    assert text(pg, "#condition").startswith("α cut-off at C: α=3 ≥ β=2")
    shot(pg, f"learn-en-{width}.png")
    pg.click(".lang-switch button[data-lang=el]")
    pg.wait_for_function("document.getElementById('condition').textContent.startsWith('κλάδεμα')")
    assert text(pg, "#step-count").startswith("9 /")                          # the same step, now in Greek
    assert not pg.errors
    pg.close()
