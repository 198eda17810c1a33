package provisioners

import (
	"bytes"
	"io"
	"time"
)

// partialLineAfter is how long a line without its newline waits for
// more before it is shown as it is (a prompt, a progress counter).
const partialLineAfter = 100 * time.Millisecond

// ReadLines calls out with each line r gives, without its newline; a
// line still unfinished after partialLineAfter without more bytes is
// given as it is, and the rest of it follows as a line of its own.
func ReadLines(r io.Reader, out func(string)) {
	chunks := make(chan []byte)
	go func() {
		defer close(chunks)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				chunks <- bytes.Clone(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	var line []byte
	timer := time.NewTimer(partialLineAfter)
	timer.Stop()
	for {
		select {
		case chunk, ok := <-chunks:
			if !ok {
				if len(line) > 0 {
					out(string(line))
				}
				return
			}
			line = append(line, chunk...)
			for {
				i := bytes.IndexByte(line, '\n')
				if i < 0 {
					break
				}
				out(string(line[:i]))
				line = line[i+1:]
			}
			timer.Reset(partialLineAfter)
		case <-timer.C:
			if len(line) > 0 {
				out(string(line))
				line = nil
			}
		}
	}
}
