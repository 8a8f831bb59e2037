"""The doctor only reads, knows the service, and says each part's fix in one line;
config --check catches what would fail later; a configuration file that cannot be
read is one sentence for every command that reads it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from device.cli import main
from device.commands import doctor
from device.config import service
from device.config import settings as config
from device.store.store import Store

from .test_round import box_settings, build, tap


def write_config(tmp_path: Path, photos: Path, store: Path, extra: str = "") -> Path:
    path = tmp_path / "box.toml"
    path.write_text(
        f'[camera]\nbackend = "folder"\nfolder = "{photos}"\n[screen]\nbackend = "dummy"\n'
        f'[store]\nfolder = "{store}"\n{extra}',
        encoding="utf-8",
    )
    return path


def listing(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
    }


@pytest.fixture
def mock_pins(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")


def test_the_doctor_creates_no_store_and_touches_no_stored_file(
    tmp_path, photos, capsys, mock_pins
):
    missing = tmp_path / "nowhere" / "store"
    assert main(["doctor", "--config", str(write_config(tmp_path, photos, missing))]) == 0
    assert "no match stored yet" in capsys.readouterr().out
    assert not missing.parent.exists()
    chosen = box_settings(tmp_path, photos)  # a store as a box leaves it after a round
    made, _, _ = build(tmp_path, photos, settings=chosen)
    tap(made)
    made.close()
    store = Path(chosen["store"]["folder"])
    before = listing(store)
    assert "matches.db" in before and "matches.db-wal" not in before
    assert main(["doctor", "--config", str(write_config(tmp_path, photos, store))]) == 0
    assert "matches.db is ok" in capsys.readouterr().out
    assert listing(store) == before  # no -wal, no -shm (a root doctor's would lock out
    # the service), no photo, nothing touched


def test_the_doctor_reports_as_one_json_document(tmp_path, photos, capsys, mock_pins):
    path = write_config(tmp_path, photos, tmp_path / "store")
    assert main(["doctor", "--json", "--config", str(path)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["ok"] is True and document["config"] == str(path)
    assert document["service"] in ("running", "stopped", "not installed", "no systemd")
    parts = [check["part"] for check in document["checks"]]
    assert parts == ["camera", "pins", "screen", "model", "lexicons", "store", "page", "search"]
    assert all(check["status"] == "ok" for check in document["checks"])


def test_parts_the_running_service_holds_are_busy_not_broken(
    tmp_path, photos, capsys, monkeypatch, factory
):
    from gpiozero import Button

    held = Button(17)  # the service's button
    monkeypatch.setattr(doctor, "service_state", lambda: "running")
    path = write_config(tmp_path, photos, tmp_path / "store")
    assert main(["doctor", "--json", "--config", str(path)]) == 0  # busy is not a fault
    checks = {c["part"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert checks["pins"]["status"] == "busy"
    assert "held by the running cuberef service" in checks["pins"]["line"]
    assert "sudo systemctl stop cuberef" in checks["pins"]["line"]
    assert checks["camera"]["status"] == "ok"  # a part that opens is reported as it is
    monkeypatch.setattr(doctor, "service_state", lambda: "stopped")
    assert main(["doctor", "--config", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    fix = [line for line in lines if line.startswith("FIX")]
    assert len(fix) == 1 and fix[0].startswith("FIX  pins: GPIO17 for the button is in use")
    assert all(line.rstrip().endswith(".") for line in lines)
    held.close()


def test_with_the_services_configuration_the_doctor_checks_the_services_store(
    tmp_path, photos, capsys, monkeypatch, mock_pins
):
    service_store = tmp_path / "var-lib-cuberef"
    Store(service_store).close()
    path = tmp_path / "etc-cuberef.toml"
    path.write_text(
        f'[camera]\nbackend = "folder"\nfolder = "{photos}"\n[screen]\nbackend = "dummy"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(service, "DEFAULT_PATH", str(path))
    monkeypatch.setattr(service, "SERVICE_STORE", service_store)
    monkeypatch.setenv("CUBEREF_CONFIG", str(path))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    assert main(["doctor"]) == 0
    assert f"{service_store / 'matches.db'} is ok" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("document", "said"),
    [
        ('lexicon = "nosuch"', "lexicon = 'nosuch' is not a word list here; choose one of"),
        ('dice = "nosuch"', "dice = 'nosuch': Boggle has no dice called 'nosuch'; choose new"),
        ('game = "big-boggle"\ndice = "old"', "Big Boggle has no dice called 'old'"),
        ("[store]\nfolder = 'FILE'", "is a file; give a folder"),
    ],
    ids=["lexicon", "dice", "dice of another game", "store folder that is a file"],
)
def test_config_check_refuses_what_would_fail_in_the_box(tmp_path, capsys, document, said):
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder", encoding="utf-8")
    path = tmp_path / "box.toml"
    path.write_text(document.replace("FILE", str(a_file)) + "\n", encoding="utf-8")
    assert main(["config", "--check", "--config", str(path)]) == 2
    out, err = capsys.readouterr()
    assert said in err and out == ""  # problems go to stderr
    assert err.count("\n") == 1 and err.startswith(f"{path}: ")
    assert main(["config", "--check", "--json", "--config", str(path)]) == 2
    out, err = capsys.readouterr()
    verdict = json.loads(out)
    assert verdict["ok"] is False and said in verdict["problems"][0] and said in err


def test_the_dice_chosen_are_the_cubes_the_box_reads_and_corrects_by(tmp_path, photos):
    chosen = box_settings(tmp_path, photos)
    chosen["dice"] = "old"
    made, _, _ = build(tmp_path, photos, settings=chosen)
    game = made.referee.game
    assert game.cube_set() == game.cube_set("old") != game.cube_set("new")
    made.close()
    assert config.chosen_game(config.defaults()).cube_set() == game.cube_set("new")


@pytest.mark.parametrize("command", [["run"], ["doctor"], ["config", "--check"]])
@pytest.mark.parametrize("kind", ["folder", "not UTF-8"])
def test_a_configuration_that_cannot_be_read_is_one_sentence(tmp_path, capsys, command, kind):
    path = tmp_path / "box.toml"
    if kind == "folder":
        path.mkdir()
    else:
        path.write_bytes(b'game = "boggle"\nplayers = ["Ren\xe9e"]\n')  # Latin-1
    assert main([*command, "--config", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert str(path) in err


def test_claiming_pins_from_a_folder_lgpio_cannot_write_moves_lgpio_elsewhere(monkeypatch):
    from device.parts.gpio import claim

    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert claim(lambda: "a device", "button", 17) == "a device"
    assert os.environ["LG_WD"]  # lgpio's pipes go to the temporary folder instead
