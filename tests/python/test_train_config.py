"""The TOML configuration, the shipped configs' sizes, and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from manaka.train import ConfigError, PolicyValueNet, count_parameters, load_config
from manaka.train.config import PretrainConfig, config_from_dict, config_to_dict

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c.toml"
    path.write_text(text)
    return path


def test_unknown_keys_are_refused_naming_the_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown key 'epoch'"):
        load_config(write(tmp_path, "epoch = 3\n"))
    with pytest.raises(ConfigError, match="unknown key 'model.chanels'"):
        load_config(write(tmp_path, "[model]\nchanels = 64\n"))
    with pytest.raises(ConfigError, match="unknown key 'traning'"):
        load_config(write(tmp_path, "[traning]\nlr = 1\n"))


def test_values_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="'batch_size' must be int"):
        load_config(write(tmp_path, "batch_size = 'big'\n"))
    with pytest.raises(ConfigError, match="'model' must be a table"):
        load_config(write(tmp_path, "model = 3\n"))
    with pytest.raises(ConfigError, match="'schedule.kind' must be one of"):
        load_config(write(tmp_path, "[schedule]\nkind = 'step'\n"))
    with pytest.raises(ConfigError, match="'epochs' must be at least 1"):
        load_config(write(tmp_path, "epochs = 0\n"))
    with pytest.raises(ConfigError, match="c.toml"):
        load_config(write(tmp_path, "epochs = \n"))
    config = load_config(write(tmp_path, "[optimizer]\nlr = 1\n"))  # an int where a float belongs is fine
    assert config.optimizer.lr == 1.0 and isinstance(config.optimizer.lr, float)
    assert config_from_dict(config_to_dict(config)) == config
    assert load_config(write(tmp_path, "")) == PretrainConfig()


@pytest.mark.parametrize("name, low, high", [("chess-pretrain.toml", 14_000_000, 16_000_000),
                                             ("chess-pretrain-small.toml", 100_000, 2_000_000)])
def test_shipped_configs_and_their_sizes(name: str, low: int, high: int) -> None:
    config = load_config(ROOT / "configs" / name)
    params = count_parameters(PolicyValueNet(config.model))
    print(f"{name}: {config.model.blocks} blocks x {config.model.channels} channels, {params:,} parameters")
    assert low <= params <= high


def test_command_help_and_params(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "manaka.train", "pretrain", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "--config" in out.stdout and "--resume" in out.stdout
    out = subprocess.run([sys.executable, "-m", "manaka.train", "pretrain", "--config",
                          str(ROOT / "configs" / "chess-pretrain.toml"), "--params"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert 14_000_000 <= json.loads(out.stdout)["parameters"] <= 16_000_000
    bad = write(tmp_path, "[model]\nblock = 3\n")
    out = subprocess.run([sys.executable, "-m", "manaka.train", "pretrain", "--config", str(bad)],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "unknown key 'model.block'" in out.stderr
    out = subprocess.run([sys.executable, "-m", "manaka.train", "pretrain", "--config",
                          str(ROOT / "configs" / "chess-pretrain-small.toml"), "--corpus", str(tmp_path / "none")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "does not exist" in out.stderr
