"""The web page of `cubedb serve` in a real browser (Debian's chromium, driven by
chromedriver through selenium): load it, scramble, solve, check the shown solution solves
the cube, step through it, see the error for an impossible net, use the keyboard; a
screenshot of the solved scramble is saved under target/screenshots/.

Needs the release binary (`cargo build --release`) and chromium + chromium-driver. Without
the browser the tests are skipped, unless CUBEDB_REQUIRE_BROWSER is set (as `.ci/run`
does), when they fail.
"""

import os
import pathlib
import shutil
import subprocess

import pytest

import cubedb

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("CUBEDB_BIN", ROOT / "target" / "release" / "cubedb"))
SCREENSHOTS = ROOT / "target" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def _browser_missing():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.path.exists(p)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package")
    return missing


def _need_browser():
    missing = _browser_missing()
    if missing:
        if os.environ.get("CUBEDB_REQUIRE_BROWSER"):
            pytest.fail(f"browser test required but missing: {missing}")
        pytest.skip(f"no browser: {missing}")


@pytest.fixture(scope="module")
def server():
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: cargo build --release first")
    args = [str(BINARY), "serve", "--addr", "127.0.0.1:0", "-q"]
    if os.environ.get("CUBEDB_DATA"):
        args += ["--data", os.environ["CUBEDB_DATA"]]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        pytest.fail("cubedb serve did not start: " + line + process.stderr.read())
    base = "http://" + line.split("http://")[1].split()[0]
    yield base
    process.terminate()
    process.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    _need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait_for(driver, condition, timeout=30):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(lambda d: condition(d))


def by_id(driver, name):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, name)


def shown_moves(driver):
    from selenium.webdriver.common.by import By

    return [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#moves .move")]


def type_into(driver, name, text):
    field = by_id(driver, name)
    field.clear()
    field.send_keys(text)


def test_scramble_solve_and_step_through(server, browser):
    browser.get(server + "/")
    assert "cubedb" in browser.title
    scramble = "R U R' U' F2 D B' L2 U"
    start = cubedb.Cube.from_moves(scramble)
    type_into(browser, "scramble", scramble)
    by_id(browser, "apply-scramble").click()
    wait_for(browser, lambda d: by_id(d, "facelets").get_attribute("value") == start.facelets)

    by_id(browser, "solve-near").click()
    wait_for(browser, lambda d: by_id(d, "solution").is_displayed())
    moves = shown_moves(browser)
    assert moves and len(moves) <= 21
    assert start.apply(" ".join(moves)).is_solved()
    assert "face turns" in by_id(browser, "summary").text

    # Step forward: the net shows the cube after each move.
    for k in range(1, len(moves) + 1):
        by_id(browser, "forward").click()
        expected = start.apply(" ".join(moves[:k])).facelets
        wait_for(browser, lambda d: by_id(d, "facelets").get_attribute("value") == expected)
    assert "solved" in by_id(browser, "step").text
    by_id(browser, "first").click()
    wait_for(browser, lambda d: by_id(d, "facelets").get_attribute("value") == start.facelets)
    # Back and forth with the keyboard.
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    first = start.apply(moves[0]).facelets
    wait_for(browser, lambda d: by_id(d, "facelets").get_attribute("value") == first)
    by_id(browser, "last").click()
    wait_for(browser, lambda d: by_id(d, "facelets").get_attribute("value") == cubedb.Cube().facelets)
    # A step in the middle, for the screenshot.
    by_id(browser, "first").click()
    for _ in range(len(moves) // 2):
        by_id(browser, "forward").click()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(SCREENSHOTS / "web-solved.png"))


def test_optimal_and_random(server, browser):
    browser.get(server + "/")
    type_into(browser, "scramble", "R U F")
    by_id(browser, "apply-scramble").click()
    wait_for(browser, lambda d: by_id(d, "facelets").get_attribute("value") == cubedb.Cube.from_moves("R U F").facelets)
    by_id(browser, "solve-optimal").click()
    wait_for(browser, lambda d: by_id(d, "solution").is_displayed())
    assert shown_moves(browser) == ["F'", "U'", "R'"]
    assert "3 face turns (optimal)" in by_id(browser, "summary").text

    by_id(browser, "random").click()
    wait_for(browser, lambda d: by_id(d, "scramble").get_attribute("value") != "R U F")
    scramble = by_id(browser, "scramble").get_attribute("value")
    assert len(scramble.split()) <= 21
    assert by_id(browser, "facelets").get_attribute("value") == cubedb.Cube.from_moves(scramble).facelets


def test_impossible_nets_say_which_rule(server, browser):
    from selenium.webdriver.common.by import By

    browser.get(server + "/")
    # Paint U1 red (key 2 picks red): ten red stickers, eight white.
    browser.find_element(By.TAG_NAME, "body").send_keys("2")
    browser.find_element(By.CSS_SELECTOR, '.sticker[data-index="0"]').click()
    assert "each needs 9" in by_id(browser, "cube-state").text
    by_id(browser, "solve-near").click()
    wait_for(browser, lambda d: "sticker counts" in by_id(d, "message").text)

    # A twisted corner: the right counts, an impossible cube.
    faces = list(cubedb.Cube().facelets)
    faces[8], faces[9], faces[20] = faces[20], faces[8], faces[9]
    type_into(browser, "facelets", "".join(faces))
    by_id(browser, "load-facelets").click()
    by_id(browser, "solve-optimal").click()
    wait_for(browser, lambda d: "twist" in by_id(d, "message").text)
    assert by_id(browser, "solution").is_displayed() is False


def test_competition_scrambles_with_pictures(server, browser):
    """The event picker: the service's scrambles for the seed, each with the net of the
    state it reaches."""
    import json
    import urllib.request

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(server + "/")
    for event, count in (("333", 3), ("sq1", 2), ("444bf", 2)):
        Select(by_id(browser, "event")).select_by_value(event)
        type_into(browser, "event-count", str(count))
        type_into(browser, "event-seed", "5")
        by_id(browser, "event-scramble").click()
        wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#event-scrambles li")) == count, timeout=120)
        with urllib.request.urlopen(f"{server}/api/scramble/{event}?count={count}&seed=5&format=json") as reply:
            expected = json.load(reply)["scrambles"]
        shown = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#event-scrambles .scramble-text")]
        assert shown == expected
        pictures = browser.find_elements(By.CSS_SELECTOR, "#event-scrambles svg.scramble-picture")
        assert len(pictures) == count
        if event == "sq1":
            # The Square-1's drawing: the same picture the library draws for the scramble.
            for picture, scramble in zip(pictures, expected):
                assert len(picture.find_elements(By.TAG_NAME, "polygon")) == cubedb.scramble_picture("sq1", scramble).count("<polygon")
        if event == "333":
            # Each picture shows the stickers of the cube its scramble reaches.
            colours = {"U": "#ffffff", "R": "#ff0000", "F": "#00d800", "D": "#ffff00", "L": "#ff8000", "B": "#0000ff"}
            for picture, scramble in zip(pictures, expected):
                fills = [r.get_attribute("fill") for r in picture.find_elements(By.TAG_NAME, "rect")]
                facelets = cubedb.Cube.from_moves(scramble).facelets
                assert fills == [colours[f] for f in facelets]
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            by_id(browser, "events-title").location_once_scrolled_into_view
            assert browser.save_screenshot(str(SCREENSHOTS / "web-events.png"))
    type_into(browser, "event-count", "0")
    by_id(browser, "event-scramble").click()
    wait_for(browser, lambda d: "count" in by_id(d, "event-message").text)
