"""How the tests start Chromium: which binary, and with which switches.

Chromium headless is the whole browser without a screen: every Playwright context is a
window of its own, and every window builds its address bar's suggestion popup as a web
page (chrome://omnibox-popup.top-chrome, a Lit app of some 200 files) in a renderer, and
keeps it in step with each navigation. No test types in an address bar. Turning the popup's
three features off took a new context with a page from 0.70 to 0.42 CPU-seconds, and a
sample of 58 browser tests from 118 and 121 to 102 and 107 CPU-seconds, interleaved
(docs/performance.md, "The address bar's popup, built for every window").

Playwright starts Chromium with a ``--disable-features`` list of its own. Chromium keeps
the last value of a switch given twice, so the switch here repeats Playwright's list
before ours; tests/test_chromium_switches.py fails when an upgrade of Playwright changes
its list.
"""

from __future__ import annotations

import os
from pathlib import Path

#: The Chromium every browser test drives (Debian's, unless SPACETABLE_CHROMIUM says).
CHROMIUM = Path(os.environ.get("SPACETABLE_CHROMIUM", "/usr/bin/chromium"))

#: The features Playwright's own switches turn off (its ``chromiumSwitches``), as of the
#: Playwright in uv.lock.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)

#: The address bar's suggestion popup drawn as a web page in every window (all three:
#: with any one left on, the popup is still built).
ADDRESS_BAR_POPUP_FEATURES = (
    "WebUIOmniboxPopup",
    "WebUIOmniboxFullPopup",
    "WebUIOmniboxAimPopup",
)

#: The switches the tests add to Playwright's: no sandbox (the tests run as root in a
#: container), no GPU (there is none), nothing fetched from the network but our servers.
LAUNCH_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + ADDRESS_BAR_POPUP_FEATURES),
)
