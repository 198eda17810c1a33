package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Log levels of tenet's own log (TF_LOG, TF_LOG_CORE), lowest first.
const (
	logTrace = iota
	logDebug
	logInfo
	logWarn
	logError
	logOff
)

var logLevelNames = [...]string{"TRACE", "DEBUG", "INFO", "WARN", "ERROR"}

// coreLog is tenet's own log, as OpenTofu's TF_LOG is: off unless TF_LOG
// or TF_LOG_CORE names a level (TRACE, DEBUG, INFO, WARN, ERROR; JSON is
// TRACE as one JSON object per line; OFF), written to stderr or appended
// to TF_LOG_PATH. Provider plugins' logs (TF_LOG_PROVIDER) are routed by
// providers/plugin. A nil *coreLog logs nothing, and a message below the
// level is never formatted, so logging costs a comparison when off.
type coreLog struct {
	level int
	json  bool
	mu    sync.Mutex
	w     io.Writer
	close func()
}

// newCoreLog reads TF_LOG, TF_LOG_CORE and TF_LOG_PATH from env. It
// returns nil when logging is off. An unknown level is warned about on
// stderr and means TRACE, as in OpenTofu.
func newCoreLog(env []string, stderr io.Writer) *coreLog {
	raw := lookupEnv(env, "TF_LOG_CORE")
	if raw == "" {
		raw = lookupEnv(env, "TF_LOG")
	}
	if raw == "" {
		return nil
	}
	l := &coreLog{w: stderr, close: func() {}}
	name := strings.ToUpper(strings.TrimSpace(raw))
	switch name {
	case "OFF":
		return nil
	case "JSON":
		l.level, l.json = logTrace, true
	default:
		l.level = -1
		for i, n := range logLevelNames {
			if n == name {
				l.level = i
			}
		}
		if l.level < 0 {
			fmt.Fprintf(stderr, "[WARN] Invalid log level: %q. Defaulting to level: TRACE. Valid levels are: [TRACE DEBUG INFO WARN ERROR OFF]\n", name)
			l.level = logTrace
		}
	}
	if path := lookupEnv(env, "TF_LOG_PATH"); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
		if err != nil {
			fmt.Fprintf(stderr, "[WARN] Error opening log file %s: %s; logging to stderr\n", path, err)
		} else {
			l.w, l.close = f, func() { f.Close() }
		}
	}
	return l
}

// enabled reports whether messages of the level are written.
func (l *coreLog) enabled(level int) bool { return l != nil && level >= l.level }

// logf writes one message at the level.
func (l *coreLog) logf(level int, format string, args ...any) {
	if !l.enabled(level) {
		return
	}
	msg := fmt.Sprintf(format, args...)
	now := time.Now().UTC()
	var line []byte
	if l.json {
		line, _ = json.Marshal(struct {
			Level     string `json:"@level"`
			Message   string `json:"@message"`
			Timestamp string `json:"@timestamp"`
		}{strings.ToLower(logLevelNames[level]), msg, now.Format("2006-01-02T15:04:05.000000Z07:00")})
		line = append(line, '\n')
	} else {
		// "[INFO] " and "[WARN] " get a second space so messages line up.
		tag := "[" + logLevelNames[level] + "]"
		line = fmt.Appendf(nil, "%s %-7s %s\n", now.Format("2006-01-02T15:04:05.000Z07:00"), tag, msg)
	}
	l.mu.Lock()
	l.w.Write(line)
	l.mu.Unlock()
}

// finish closes TF_LOG_PATH's file.
func (l *coreLog) finish() {
	if l != nil {
		l.close()
	}
}
