"""The tests' Chromium switches keep what Playwright's own switches turn off.

tests/_chromium.py gives Chromium a ``--disable-features`` list, which replaces the one
Playwright gives: so it repeats Playwright's. This reads Playwright's list from the driver
installed with it, so that an upgrade that changes it fails here, by name, rather than
change the browser under every browser test unseen."""

from __future__ import annotations

import re
from pathlib import Path

import playwright

from tests._chromium import LAUNCH_ARGS, PLAYWRIGHT_DISABLED_FEATURES

#: Where Playwright's driver defines its Chromium switches (the bundle of recent versions,
#: the module of older ones).
_SOURCES = ("lib/coreBundle.js", "lib/server/chromium/chromiumSwitches.js")


def playwright_disabled_features() -> tuple[str, ...]:
    """The features the installed Playwright's Chromium switches turn off."""
    package = Path(playwright.__file__).parent / "driver" / "package"
    for name in _SOURCES:
        path = package / name
        if not path.exists():
            continue
        source = path.read_text(encoding="utf-8")
        found = re.search(r"disabledFeatures\s*=\s*\[(.*?)\]", source, re.DOTALL)
        if found is None:
            continue
        listing = re.sub(r"//[^\n]*", "", found.group(1))
        return tuple(re.findall(r"\"([^\"]+)\"", listing))
    raise AssertionError(f"no list of disabled features found in {package}/{_SOURCES}")


def test_the_switches_repeat_playwrights_disabled_features() -> None:
    assert playwright_disabled_features() == PLAYWRIGHT_DISABLED_FEATURES


def test_one_disable_features_switch_holds_playwrights_and_ours() -> None:
    switches = [arg for arg in LAUNCH_ARGS if arg.startswith("--disable-features=")]
    assert len(switches) == 1
    features = switches[0].removeprefix("--disable-features=").split(",")
    assert features[: len(PLAYWRIGHT_DISABLED_FEATURES)] == list(PLAYWRIGHT_DISABLED_FEATURES)
    assert "WebUIOmniboxPopup" in features
