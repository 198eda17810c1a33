package cli_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/ssh"
	"golang.org/x/tools/txtar"

	"github.com/tenetplan/tenet/cli"
	"github.com/tenetplan/tenet/internal/sshtest"
	"github.com/tenetplan/tenet/state/local"
)

// The script tests run tenet as a person would, from txtar files under
// ../testdata/script: the archive's files are the working directory, its
// comment is the script. The test binary doubles as the tenet binary (see
// TestMain), so no separate build is needed.
//
// Script language, one command a line ('#' starts a comment line):
//
//	tenet ARGS...           run tenet; it must exit 0
//	! tenet ARGS...         it must exit non-zero
//	? tenet ARGS...         any exit status
//	exec PROG ARGS...       run another program (same prefixes)
//	status N                the last command exited with N
//	stdout RE / stderr RE   the last command's output matches RE (multi-line mode)
//	! stdout RE             it does not match
//	grep RE FILE            FILE matches RE (also with !)
//	cmp A B                 files A and B (or stdout / stderr) are identical
//	exists FILE...          the files exist (also with !)
//	cp SRC DST              copy a file (SRC may be stdout / stderr)
//	sub RE REPL FILE        replace every match of RE in FILE (or stdout /
//	                        stderr) with REPL ($1 names a group), e.g. to
//	                        blank out generated ids before a cmp
//	mkdir DIR / rm PATH     make a directory / remove a file or tree
//	cd DIR                  change the working directory
//	env KEY=VALUE           set an environment variable for later commands
//	stdin FILE              feed FILE to the next command
//	sshd USER PASSWORD      start a loopback SSH server (internal/sshtest)
//	                        for the rest of the script; $SSH_PORT is its
//	                        port, $SSH_HOST_KEY its key (authorized_keys form)
//	lock STATEFILE [DUR]    hold the state lock (for DUR, else until unlock)
//	unlock STATEFILE        release it
//	skip MESSAGE            skip the rest of the script; with a message
//	                        'known bug: ...' the script still runs, is
//	                        skipped when it fails and fails when it passes,
//	                        so that fixed bugs get their test back
//
// Arguments are split on blanks; 'single quotes' keep blanks and take no
// expansion; $NAME and ${NAME} expand from the script's environment. $WORK
// is the archive's directory.

const runMainEnv = "TENET_SCRIPT_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Environ()))
	}
	os.Exit(m.Run())
}

const scriptCommandTimeout = 2 * time.Minute

func TestScripts(t *testing.T) {
	eachScenario(t, "script", runScript)
}

// eachScenario calls run in a parallel subtest for each archive under
// testdata/dir, named after it, with this test binary, which runs as
// tenet (see TestMain).
func eachScenario(t *testing.T, dir string, run func(t *testing.T, self, file string)) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenarios under testdata/%s", dir)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run(t, self, file)
		})
	}
}

// scriptState is one script's run.
type scriptState struct {
	t        *testing.T
	self     string
	file     string
	line     int
	work     string
	cwd      string
	env      map[string]string
	stdin    []byte
	stdout   string
	stderr   string
	status   int
	ran      bool
	locks    map[string]*local.Manager
	servers  []*sshtest.Server
	log      strings.Builder
	skipping string
	knownBug string
}

func runScript(t *testing.T, self, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	for _, f := range ar.Files {
		p := filepath.Join(work, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &scriptState{
		t: t, self: self, file: file, work: work, cwd: work,
		env: map[string]string{
			"WORK":   work,
			"HOME":   filepath.Join(work, ".home"),
			"PATH":   os.Getenv("PATH"),
			"TMPDIR": os.TempDir(),
		},
		locks: map[string]*local.Manager{},
	}
	defer func() {
		for _, m := range s.locks {
			m.Unlock()
		}
		for _, srv := range s.servers {
			srv.Close()
		}
	}()
	for i, raw := range strings.Split(string(ar.Comment), "\n") {
		s.line = i + 1
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fmt.Fprintf(&s.log, "> %s\n", line)
		if err := s.exec(line); err != nil {
			if s.knownBug != "" {
				t.Skipf("%s\n(still failing at %s:%d: %s: %v)", s.knownBug, filepath.Base(file), s.line, line, firstLine(err.Error()))
			}
			t.Fatalf("%s:%d: %s\n%v\n--- script log ---\n%s", filepath.Base(file), s.line, line, err, lastBytes(s.log.String(), 3000))
		}
		if s.skipping != "" {
			t.Skip(s.skipping)
		}
	}
	if s.knownBug != "" {
		t.Errorf("%s passes now: remove its 'skip %s' line", filepath.Base(file), s.knownBug)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// exec runs one script line.
func (s *scriptState) exec(line string) error {
	args, err := s.split(line)
	if err != nil {
		return err
	}
	want := "success"
	switch args[0] {
	case "!":
		want, args = "failure", args[1:]
	case "?":
		want, args = "any", args[1:]
	}
	if len(args) == 0 {
		return errors.New("missing command")
	}
	cmd, args := args[0], args[1:]
	neg := want == "failure"
	switch cmd {
	case "tenet":
		return s.run(want, s.self, args, true)
	case "exec":
		if len(args) == 0 {
			return errors.New("usage: exec PROG ARGS...")
		}
		return s.run(want, args[0], args[1:], false)
	case "status":
		n, err := strconv.Atoi(strings.Join(args, ""))
		if err != nil || len(args) != 1 {
			return errors.New("usage: status N")
		}
		if s.status != n {
			return fmt.Errorf("exit status %d, want %d", s.status, n)
		}
	case "stdout", "stderr":
		text := s.stdout
		if cmd == "stderr" {
			text = s.stderr
		}
		return s.match(neg, cmd, text, args)
	case "grep":
		if len(args) != 2 {
			return errors.New("usage: grep RE FILE")
		}
		data, err := os.ReadFile(s.path(args[1]))
		if err != nil {
			return err
		}
		return s.match(neg, args[1], string(data), args[:1])
	case "cmp":
		if len(args) != 2 || neg {
			return errors.New("usage: cmp A B")
		}
		a, err := s.content(args[0])
		if err != nil {
			return err
		}
		b, err := s.content(args[1])
		if err != nil {
			return err
		}
		if a != b {
			return fmt.Errorf("%s and %s differ (-%s +%s):\n%s", args[0], args[1], args[0], args[1],
				cmp.Diff(strings.Split(a, "\n"), strings.Split(b, "\n")))
		}
	case "exists":
		for _, f := range args {
			_, err := os.Stat(s.path(f))
			if neg && err == nil {
				return fmt.Errorf("%s exists", f)
			}
			if !neg && err != nil {
				return err
			}
		}
	case "cp":
		if len(args) != 2 {
			return errors.New("usage: cp SRC DST")
		}
		data, err := s.content(args[0])
		if err != nil {
			return err
		}
		return os.WriteFile(s.path(args[1]), []byte(data), 0o644)
	case "sub":
		if len(args) != 3 {
			return errors.New("usage: sub RE REPL FILE")
		}
		re, err := regexp.Compile("(?m)" + args[0])
		if err != nil {
			return err
		}
		data, err := s.content(args[2])
		if err != nil {
			return err
		}
		out := re.ReplaceAllString(data, args[1])
		switch args[2] {
		case "stdout":
			s.stdout = out
		case "stderr":
			s.stderr = out
		default:
			return os.WriteFile(s.path(args[2]), []byte(out), 0o644)
		}
	case "mkdir":
		for _, d := range args {
			if err := os.MkdirAll(s.path(d), 0o755); err != nil {
				return err
			}
		}
	case "rm":
		for _, p := range args {
			if err := os.RemoveAll(s.path(p)); err != nil {
				return err
			}
		}
	case "cd":
		if len(args) != 1 {
			return errors.New("usage: cd DIR")
		}
		dir := s.path(args[0])
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("cd %s: not a directory", args[0])
		}
		s.cwd = dir
	case "env":
		for _, kv := range args {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return fmt.Errorf("env %s: want KEY=VALUE", kv)
			}
			s.env[k] = v
		}
	case "stdin":
		if len(args) != 1 {
			return errors.New("usage: stdin FILE")
		}
		data, err := s.content(args[0])
		if err != nil {
			return err
		}
		s.stdin = []byte(data)
	case "sshd":
		if len(args) != 2 {
			return errors.New("usage: sshd USER PASSWORD")
		}
		srv, err := sshtest.Start(args[0], args[1], nil)
		if err != nil {
			return err
		}
		s.servers = append(s.servers, srv)
		s.env["SSH_PORT"] = strconv.Itoa(srv.Port)
		s.env["SSH_HOST_KEY"] = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(srv.HostKey)))
	case "lock":
		return s.lock(args)
	case "unlock":
		if len(args) != 1 || s.locks[s.path(args[0])] == nil {
			return errors.New("usage: unlock STATEFILE (held by lock)")
		}
		m := s.locks[s.path(args[0])]
		delete(s.locks, s.path(args[0]))
		return m.Unlock()
	case "skip":
		msg := strings.Join(args, " ")
		if strings.HasPrefix(msg, "known bug:") {
			// Run it anyway: it must keep failing until the bug is fixed.
			s.knownBug = msg
			return nil
		}
		s.skipping = msg
	default:
		return fmt.Errorf("unknown command %q", cmd)
	}
	return nil
}

// split breaks a line into words, honouring single quotes and expanding
// $NAME outside them.
func (s *scriptState) split(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	expand := func(text string) string {
		return os.Expand(text, func(k string) string { return s.env[k] })
	}
	var plain strings.Builder
	flushPlain := func() {
		cur.WriteString(expand(plain.String()))
		plain.Reset()
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'':
			if i+1 < len(line) && line[i+1] == '\'' {
				cur.WriteByte('\'')
				i++
				continue
			}
			quoted = false
		case quoted:
			cur.WriteByte(c)
		case c == '\'':
			flushPlain()
			quoted, inWord = true, true
		case c == ' ' || c == '\t':
			if inWord {
				flushPlain()
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			plain.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, errors.New("unterminated quote")
	}
	if inWord {
		flushPlain()
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}

func (s *scriptState) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.cwd, p)
}

// content reads a file, or the last command's stdout / stderr.
func (s *scriptState) content(name string) (string, error) {
	switch name {
	case "stdout":
		return s.stdout, nil
	case "stderr":
		return s.stderr, nil
	}
	data, err := os.ReadFile(s.path(name))
	return string(data), err
}

func (s *scriptState) match(neg bool, what, text string, args []string) error {
	count := -1
	if len(args) == 2 && strings.HasPrefix(args[0], "-count=") {
		n, err := strconv.Atoi(strings.TrimPrefix(args[0], "-count="))
		if err != nil {
			return err
		}
		count, args = n, args[1:]
	}
	if len(args) != 1 {
		return fmt.Errorf("usage: %s [-count=N] REGEXP", what)
	}
	re, err := regexp.Compile("(?m)" + args[0])
	if err != nil {
		return err
	}
	if !s.ran && (what == "stdout" || what == "stderr") {
		return errors.New("no command has run yet")
	}
	found := re.FindAllStringIndex(text, -1)
	switch {
	case neg && len(found) > 0:
		return fmt.Errorf("%s matches %q; it should not:\n%s", what, args[0], text)
	case !neg && count >= 0 && len(found) != count:
		return fmt.Errorf("%s matches %q %d times, want %d:\n%s", what, args[0], len(found), count, text)
	case !neg && len(found) == 0:
		return fmt.Errorf("%s does not match %q:\n%s", what, args[0], text)
	}
	return nil
}

// run starts a program and records its output and exit status.
func (s *scriptState) run(want, prog string, args []string, isTenet bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), scriptCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = s.cwd
	for k, v := range s.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if isTenet {
		cmd.Env = append(cmd.Env, runMainEnv+"=1")
	}
	if s.stdin != nil {
		cmd.Stdin = bytes.NewReader(s.stdin)
		s.stdin = nil
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	s.stdout, s.stderr, s.ran = stdout.String(), stderr.String(), true
	s.status = 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		s.status = ee.ExitCode()
	case err != nil:
		return err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("timed out after %s", scriptCommandTimeout)
	}
	fmt.Fprintf(&s.log, "[exit %d after %s]\n", s.status, elapsed.Round(time.Millisecond))
	if s.stdout != "" {
		fmt.Fprintf(&s.log, "[stdout]\n%s", s.stdout)
	}
	if s.stderr != "" {
		fmt.Fprintf(&s.log, "[stderr]\n%s", s.stderr)
	}
	switch {
	case want == "success" && s.status != 0:
		return fmt.Errorf("unexpected exit status %d\nstdout:\n%s\nstderr:\n%s", s.status, s.stdout, s.stderr)
	case want == "failure" && s.status == 0:
		return fmt.Errorf("unexpected success\nstdout:\n%s\nstderr:\n%s", s.stdout, s.stderr)
	}
	return nil
}

// lock holds a state file's lock from the test process, as another tenet
// run would, optionally releasing it after a while.
func (s *scriptState) lock(args []string) error {
	if len(args) < 1 || len(args) > 2 {
		return errors.New("usage: lock STATEFILE [DURATION]")
	}
	p := s.path(args[0])
	// Retry for a while: a lock just released here can stay held for a
	// moment by a child process of a parallel script that was forked
	// before the release and has not yet exec'd (flock follows the open
	// file description).
	m := local.Open(p, local.Options{Lock: true, LockTimeout: 10 * time.Second})
	if err := m.Lock(context.Background(), local.NewLockInfo("script test")); err != nil {
		return err
	}
	if len(args) == 1 {
		s.locks[p] = m
		return nil
	}
	d, err := time.ParseDuration(args[1])
	if err != nil {
		return err
	}
	s.t.Cleanup(func() { m.Unlock() })
	time.AfterFunc(d, func() { m.Unlock() })
	return nil
}

// lastBytes keeps the end of a long log.
func lastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "...\n" + s[len(s)-n:]
}

func TestScriptSplit(t *testing.T) {
	s := &scriptState{env: map[string]string{"WORK": "/w", "X": "a b"}}
	tests := []struct {
		line string
		want []string
	}{
		{"tenet plan -no-color", []string{"tenet", "plan", "-no-color"}},
		{"stdout 'Plan: 1 to add'", []string{"stdout", "Plan: 1 to add"}},
		{"cd $WORK/sub", []string{"cd", "/w/sub"}},
		{"exec echo ${X}", []string{"exec", "echo", "a b"}},
		{"stdout '$WORK'", []string{"stdout", "$WORK"}},
		{"stdout 'it''s'", []string{"stdout", "it's"}},
		{"env a=''", []string{"env", "a="}},
		{"  ! tenet\tapply  ", []string{"!", "tenet", "apply"}},
	}
	for _, tt := range tests {
		got, err := s.split(tt.line)
		if err != nil {
			t.Errorf("split(%q): %v", tt.line, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("split(%q) (-want +got):\n%s", tt.line, diff)
		}
	}
	for _, bad := range []string{"stdout 'open", "   "} {
		if _, err := s.split(bad); err == nil {
			t.Errorf("split(%q) succeeded, want an error", bad)
		}
	}
}

func FuzzScriptSplit(f *testing.F) {
	for _, seed := range []string{"tenet plan", "stdout 'a b' c", "x ''''", "$WORK/${X}", "'"} {
		f.Add(seed)
	}
	s := &scriptState{env: map[string]string{"WORK": "/w"}}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := s.split(line)
		if err != nil {
			return
		}
		if len(words) == 0 {
			t.Fatalf("split(%q) returned no words and no error", line)
		}
		// Lines of plain words split exactly on blanks (spaces and tabs;
		// other Unicode spaces are part of a word).
		if !strings.ContainsAny(line, "'$") {
			blank := func(r rune) bool { return r == ' ' || r == '\t' }
			if diff := cmp.Diff(strings.FieldsFunc(line, blank), words); diff != "" {
				t.Fatalf("split(%q) (-fields +split):\n%s", line, diff)
			}
		}
	})
}
