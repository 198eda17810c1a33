package plugin

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// sdkLogVars silence the provider SDKs' own logging. Without them a
// provider logs at TRACE by default (TF_LOG is not what they read), and
// every line is parsed in tenet's process: calls get several times slower.
var sdkLogVars = []string{
	"TF_LOG_SDK=OFF",
	"TF_LOG_SDK_PROTO=OFF",
	"TF_LOG_SDK_FRAMEWORK=OFF",
	"TF_LOG_SDK_HELPER_SCHEMA=OFF",
	"TF_LOG_SDK_HELPER_RESOURCE=OFF",
	"TF_LOG_SDK_MUX=OFF",
	"TF_LOG_PROVIDER=OFF",
}

// logsRequested reports whether the user asked for provider logs, and at
// which level.
func logsRequested(lookup func(string) (string, bool)) (string, bool) {
	for _, k := range []string{"TF_LOG_PROVIDER", "TF_LOG"} {
		if v, ok := lookup(k); ok && v != "" && !strings.EqualFold(v, "off") {
			return v, true
		}
	}
	return "", false
}

// pluginEnv is the environment a plugin starts with: tenet's own, with
// SDK logging switched off unless the user asked for provider logs. The
// user's own TF_LOG_SDK* and TF_LOG_PROVIDER* settings are dropped in
// that case so ours take effect.
func pluginEnv(environ []string, lookup func(string) (string, bool)) []string {
	env := environ
	if _, ok := logsRequested(lookup); ok {
		return append([]string(nil), env...)
	}
	out := make([]string, 0, len(env)+len(sdkLogVars))
	for _, kv := range env {
		if strings.HasPrefix(kv, "TF_LOG_SDK") || strings.HasPrefix(kv, "TF_LOG_PROVIDER") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, sdkLogVars...)
}

// pluginLogging sets up where plugin log lines go. With provider logs
// off, the logger is disabled, which also spares go-plugin parsing each
// stderr line; stderr is then only kept for crash reports. With them on,
// lines go to TF_LOG_PATH (appended) or to tenet's stderr.
func pluginLogging(lookup func(string) (string, bool)) (hclog.Logger, io.Writer, io.Closer, error) {
	level, ok := logsRequested(lookup)
	if !ok {
		return hclog.New(&hclog.LoggerOptions{Name: "provider", Level: hclog.Off, Output: io.Discard}), io.Discard, nil, nil
	}
	var out io.Writer = os.Stderr
	var closer io.Closer
	if path, ok := lookup("TF_LOG_PATH"); ok && path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("cannot open TF_LOG_PATH for provider logs: %w", err)
		}
		out, closer = f, f
	}
	lvl := hclog.LevelFromString(level)
	if lvl == hclog.NoLevel {
		lvl = hclog.Trace // TF_LOG=1 and other truthy values mean everything
	}
	logger := hclog.New(&hclog.LoggerOptions{Name: "provider", Level: lvl, Output: out})
	// go-plugin sends parsed log lines to the logger; raw stderr would
	// duplicate them.
	return logger, io.Discard, closer, nil
}
