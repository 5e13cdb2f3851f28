"""Configuration layers: defaults, TOML file, REVERIE_* variables, flags; errors name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from reverie.config import ConfigError, env_warnings, load_config


def test_defaults_follow_xdg(tmp_path: Path) -> None:
    cfg = load_config(
        env={"XDG_DATA_HOME": str(tmp_path / "share"), "XDG_RUNTIME_DIR": str(tmp_path / "run")}
    )
    assert cfg.daemon.data_dir == str(tmp_path / "share" / "reverie")
    assert cfg.daemon.socket == str(tmp_path / "run" / "reverie.sock")
    assert cfg.store.durability == "fsync"


def test_socket_falls_back_to_data_dir_without_runtime_dir(tmp_path: Path) -> None:
    cfg = load_config(env={"XDG_DATA_HOME": str(tmp_path)})
    assert cfg.daemon.socket == str(tmp_path / "reverie" / "reverie.sock")


def test_file_then_env_then_flags(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text(
        '[consolidation]\nidle_after = 5.0\nbudget_tokens = 10\n[store]\ndurability = "process"\n'
    )
    env = {
        "REVERIE_CONSOLIDATION__BUDGET_TOKENS": "20",
        "REVERIE_LLM__BASE_URL": "http://127.0.0.1:9/v1",
    }
    cfg = load_config(path, env=env, overrides={"consolidation": {"idle_after": 1.5}})
    assert cfg.consolidation.idle_after == 1.5
    assert cfg.consolidation.budget_tokens == 20
    assert cfg.store.durability == "process"
    assert cfg.llm.base_url == "http://127.0.0.1:9/v1"


def test_default_file_in_data_dir_is_read(tmp_path: Path) -> None:
    (tmp_path / "reverie.toml").write_text("[sessions]\nmax_live = 7\n")
    cfg = load_config(env={"REVERIE_DAEMON__DATA_DIR": str(tmp_path)})
    assert cfg.sessions.max_live == 7


def test_unknown_key_names_key_and_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[consolidation]\nidle_aftr = 5\n")
    with pytest.raises(ConfigError) as err:
        load_config(path, env={})
    assert "idle_aftr" in err.value.message
    assert str(path) in err.value.message
    assert "(did you mean `idle_after`?)" in err.value.message


def test_a_misspelt_section_gets_a_suggestion(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[consolidaton]\nidle_after = 5\n")
    with pytest.raises(ConfigError, match=r"did you mean `consolidation`\?"):
        load_config(path, env={})


def test_wrong_type_names_key_and_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[store]\ndurability = "sometimes"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path, env={})
    assert "durability" in err.value.message
    assert str(path) in err.value.message


def test_bad_environment_variable_is_named(tmp_path: Path) -> None:
    with pytest.raises(
        ConfigError, match=r"^environment variable REVERIE_CONSOLIDATION__BUDGET_TOKENS: "
    ):
        load_config(env={"REVERIE_CONSOLIDATION__BUDGET_TOKENS": "lots"})
    with pytest.raises(ConfigError) as err:
        load_config(env={"REVERIE_DAEMON__LOG_LEVL": "debug"})
    assert err.value.message.startswith("environment variable REVERIE_DAEMON__LOG_LEVL: ")
    assert "(did you mean `log_level`?)" in err.value.message


def test_settings_like_variables_that_are_not_read_are_warned_about() -> None:
    env = {
        "REVERIE_LOG_LEVEL": "debug",
        "REVERIE_CONSOLIDATION_IDLE_AFTER": "5",
        "REVERIE_SOCKET": "/run/r.sock",  # the client's own
        "REVERIE_DAEMON__LOG_LEVEL": "info",
        "REVERIE_SOMETHING_ELSE": "x",
    }
    assert env_warnings(env) == [
        "REVERIE_CONSOLIDATION_IDLE_AFTER is not read; did you mean "
        "REVERIE_CONSOLIDATION__IDLE_AFTER?",
        "REVERIE_LOG_LEVEL is not read; did you mean REVERIE_DAEMON__LOG_LEVEL?",
    ]


def test_missing_config_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml", env={})


@pytest.mark.parametrize(
    ("section", "key", "value"),
    [
        ("daemon", "max_in_flight", "0"),
        ("daemon", "stall_timeout", "-1"),
        ("sessions", "max_live", "0"),
        ("llm", "timeout", "0"),
        ("embeddings", "threads", "-2"),
    ],
)
def test_out_of_range_value_names_key_and_file(
    tmp_path: Path, section: str, key: str, value: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f"[{section}]\n{key} = {value}\n")
    with pytest.raises(ConfigError) as err:
        load_config(path, env={})
    assert f"{section}.{key}" in err.value.message
    assert str(path) in err.value.message


def test_zero_is_kept_where_it_has_a_meaning(tmp_path: Path) -> None:
    path = tmp_path / "zero.toml"
    path.write_text("[daemon]\nstall_timeout = 0\n[consolidation]\ntarget_tokens = 0\n")
    cfg = load_config(path, env={})
    assert cfg.daemon.stall_timeout == 0 and cfg.consolidation.target_tokens == 0


def test_an_unquoted_string_names_the_file_the_line_and_the_quotes(tmp_path: Path) -> None:
    """tomllib said only "Invalid value (at line 2, column 12)"."""
    path = tmp_path / "reverie.toml"
    path.write_text('[llm]\nbase_url = http://127.0.0.1:8080/v1\nmodel = "m"\n')
    with pytest.raises(ConfigError) as err:
        load_config(path, env={})
    message = str(err.value)
    assert message.startswith(f"config file {path}, line 2: 'base_url = http://127.0.0.1")
    assert message.endswith('strings need quotes: base_url = "http://127.0.0.1:8080/v1"')
