package human

import (
	"io"
	"strings"

	"github.com/tenetplan/tenet/cli/views"
)

// WriteApplyOutputs writes the "Outputs:" block printed after an apply:
// `name = value`, with `<sensitive>` for sensitive outputs unless
// showSensitive. Nothing is written when there are no outputs.
func WriteApplyOutputs(w io.Writer, outputs map[string]views.OutputValue, color, showSensitive bool) error {
	if len(outputs) == 0 {
		return nil
	}
	var b strings.Builder
	// As OpenTofu: bold green from before the blank line to after the
	// heading's.
	b.WriteString(views.Colorize("[reset][bold][green]\nOutputs:\n\n", color))
	writeOutputLines(&b, outputs, showSensitive)
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteOutputs writes every output as `name = value` (`tenet output`),
// hiding sensitive values as `<sensitive>` unless showSensitive.
func WriteOutputs(w io.Writer, outputs map[string]views.OutputValue, showSensitive bool) error {
	var b strings.Builder
	writeOutputLines(&b, outputs, showSensitive)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeOutputLines(b *strings.Builder, outputs map[string]views.OutputValue, showSensitive bool) {
	for _, name := range views.SortedOutputNames(outputs) {
		o := outputs[name]
		b.WriteString(name)
		b.WriteString(" = ")
		if o.Sensitive && !showSensitive {
			b.WriteString("<sensitive>")
		} else {
			b.WriteString(views.FormatOutputValue(o.Value))
		}
		b.WriteString("\n")
	}
}
