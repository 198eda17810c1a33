package cli

import (
	"fmt"

	"github.com/tenetplan/tenet/cli/views"
)

// The commands OpenTofu prints through its older message interface (init,
// get) write lines of three kinds, which -json turns into messages of
// their own: headings and closing words ("output" messages), progress
// lines (untyped info messages) and errors that are not diagnostics.
// Templates are colourised (without colour under -json).

// output prints a heading or closing message.
func (u *ui) output(template string) {
	if u.json != nil {
		u.json.Output(views.Colorize(template, false))
		return
	}
	fmt.Fprintln(u.out, u.colorize(template))
}

// info prints a progress line.
func (u *ui) info(msg string) {
	if u.json != nil {
		u.json.Info(msg)
		return
	}
	fmt.Fprintln(u.out, msg)
}

// uiError prints an error that is not a diagnostic: red on stderr. Under
// -json the template goes out as it is, tags included, as OpenTofu's does.
func (u *ui) uiError(template string) {
	if u.json != nil {
		u.json.Error(template)
		return
	}
	fmt.Fprintln(u.errw, u.colorize("[red]"+template)+u.ansi(views.ANSIReset))
}
