#!/usr/bin/env python3
"""Self-check of the Swift StatehouseTestClients library against selfcheck_fixture.py.

The repository has no test target for the clients, so this assembles a throw-away SwiftPM package
in a temporary folder: symlinks to Sources/StatehouseTestClients, Sources/CCrypto, .venv and
Tests/Python, plus the Swift Testing files in Tests/Python/selfcheck_swift/, then runs
`swift test` there. Needs the venv (`make venv`). Exit status is swift test's.

    .venv/bin/python Tests/Python/selfcheck_swift.py [--keep]
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MANIFEST = """// swift-tools-version:6.0
import PackageDescription
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault"),
]
let package = Package(
    name: "ClientSelfCheck",
    platforms: [.macOS(.v15)],
    targets: [
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "StatehouseTestClients", dependencies: ["CCrypto"], swiftSettings: strict),
        .testTarget(name: "ClientSelfCheckTests", dependencies: ["StatehouseTestClients"], swiftSettings: strict),
    ]
)
"""


def assemble(folder: Path):
    (folder / "Package.swift").write_text(MANIFEST)
    (folder / "Sources").mkdir()
    (folder / "Tests").mkdir()
    for name in ("StatehouseTestClients", "CCrypto"):
        (folder / "Sources" / name).symlink_to(ROOT / "Sources" / name)
    (folder / "Tests" / "Python").symlink_to(ROOT / "Tests" / "Python")
    (folder / "Tests" / "ClientSelfCheckTests").symlink_to(ROOT / "Tests" / "Python" / "selfcheck_swift")
    (folder / ".venv").symlink_to(ROOT / ".venv")


def main():
    if not (ROOT / ".venv" / "bin" / "python").exists():
        print("no .venv: run `make venv` first", file=sys.stderr)
        return 2
    keep = "--keep" in sys.argv
    folder = Path(tempfile.mkdtemp(prefix="clients-selfcheck-"))
    assemble(folder)
    try:
        return subprocess.run(["swift", "test"], cwd=folder, timeout=900).returncode
    finally:
        if keep:
            print(f"kept {folder}")
        else:
            subprocess.run(["rm", "-rf", str(folder)])


if __name__ == "__main__":
    sys.exit(main())
