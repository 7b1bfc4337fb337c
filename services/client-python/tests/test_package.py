"""The package as it is kept: generated files current, lint and strict typing clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *command], cwd=PACKAGE_ROOT, capture_output=True, text=True, check=False)


def test_generated_models_and_sync_client_are_current() -> None:
    result = run("scripts/generate.py", "--check")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("command", [("check",), ("format", "--check")])
def test_ruff_is_clean(command: tuple[str, ...]) -> None:
    result = run("-m", "ruff", *command, "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    result = run("-m", "mypy", "--no-incremental")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.stack
def test_the_wheel_installs_in_a_clean_environment_and_the_documented_example_runs(tmp_path: Path) -> None:
    example = (PACKAGE_ROOT / "examples" / "quickstart.py").read_text()
    guide = (PACKAGE_ROOT.parent.parent / "docs" / "api" / "python-client.md").read_text()
    assert example.strip() in guide, "docs/api/python-client.md shows examples/quickstart.py as it is"
    built = run("-m", "build", "--no-isolation", "--wheel", "--sdist", "--outdir", str(tmp_path / "dist"))
    assert built.returncode == 0, built.stdout + built.stderr
    wheels = sorted((tmp_path / "dist").glob("memory_service_client-*.whl"))
    assert wheels, built.stdout
    assert sorted((tmp_path / "dist").glob("memory_service_client-*.tar.gz"))
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True)
    python = str(tmp_path / "venv" / "bin" / "python")
    installed = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheels[0])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    # Outside the repository, so that `memory_service` can only come from the installed wheel.
    ran = subprocess.run(
        [python, str(PACKAGE_ROOT / "examples" / "quickstart.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "ingestion completed with" in ran.stdout
    assert (
        str(tmp_path / "venv")
        in subprocess.run(
            [python, "-c", "import memory_service; print(memory_service.__file__)"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
