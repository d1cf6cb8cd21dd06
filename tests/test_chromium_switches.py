"""The tests' Chromium switches keep what Playwright's own switches turn off.

tests/_chromium.py gives Chromium a ``--disable-features`` list, which replaces the one
Playwright gives: so it repeats Playwright's. This reads Playwright's list from the driver
installed with it, so that an upgrade that changes it fails here, by name, rather than
change the browser under every browser test unseen."""

from __future__ import annotations

import re
from pathlib import Path

import playwright

from tests._chromium import ADDRESS_BAR_POPUP_FEATURES, LAUNCH_ARGS, PLAYWRIGHT_DISABLED_FEATURES

#: Where Playwright's driver defines its Chromium switches (its one bundle).
_SOURCE = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"


def playwright_disabled_features() -> tuple[str, ...]:
    """The features the installed Playwright's Chromium switches turn off."""
    found = re.search(
        r"disabledFeatures\s*=\s*\[(.*?)\]", _SOURCE.read_text(encoding="utf-8"), re.DOTALL
    )
    assert found is not None, f"no list of disabled features in {_SOURCE}"
    listing = re.sub(r"//[^\n]*", "", found.group(1))
    return tuple(re.findall(r"\"([^\"]+)\"", listing))


def test_the_switches_repeat_playwrights_disabled_features() -> None:
    assert playwright_disabled_features() == PLAYWRIGHT_DISABLED_FEATURES


def test_one_disable_features_switch_holds_playwrights_and_ours() -> None:
    switches = [arg for arg in LAUNCH_ARGS if arg.startswith("--disable-features=")]
    assert len(switches) == 1
    features = switches[0].removeprefix("--disable-features=").split(",")
    assert features[: len(PLAYWRIGHT_DISABLED_FEATURES)] == list(PLAYWRIGHT_DISABLED_FEATURES)
    assert features[len(PLAYWRIGHT_DISABLED_FEATURES) :] == list(ADDRESS_BAR_POPUP_FEATURES)
