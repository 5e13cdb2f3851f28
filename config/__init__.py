"""reverie.config: the typed configuration and the root of the error tree."""

from .errors import (
    Busy,
    ConfigError,
    Conflict,
    InvalidArgument,
    LimitReached,
    NotFound,
    ReverieError,
    error_class,
)
from .redact import ScrubbingFormatter, log_to_stderr, scrub
from .scopes import default_scope
from .settings import (
    ClusterConfig,
    Config,
    ConsolidationConfig,
    DaemonConfig,
    EmbeddingsConfig,
    IndexConfig,
    LLMConfig,
    SessionsConfig,
    StoreConfig,
    WorkingMemoryConfig,
    default_data_dir,
    default_socket_path,
    env_warnings,
    load_config,
)
from .throttle import Throttle

__all__ = [
    "Busy",
    "ClusterConfig",
    "Config",
    "ConfigError",
    "Conflict",
    "ConsolidationConfig",
    "DaemonConfig",
    "EmbeddingsConfig",
    "IndexConfig",
    "InvalidArgument",
    "LLMConfig",
    "LimitReached",
    "NotFound",
    "ReverieError",
    "ScrubbingFormatter",
    "SessionsConfig",
    "StoreConfig",
    "Throttle",
    "WorkingMemoryConfig",
    "default_data_dir",
    "default_scope",
    "default_socket_path",
    "env_warnings",
    "error_class",
    "load_config",
    "log_to_stderr",
    "scrub",
]
