package wire

import (
	"bufio"
	"errors"
	"io"
)

// Errors of ReadLine, which each side words for its own messages.
var (
	// ErrLineTooLong: a line longer than the limit, a protocol error.
	ErrLineTooLong = errors.New("line too long")
	// ErrPartialLine: the stream ended in the middle of a line.
	ErrPartialLine = errors.New("the stream ended in the middle of a line")
)

// ReadLine reads one line of the protocol without its newline, refusing
// a line longer than limit bytes (the newline included) with
// ErrLineTooLong, and a last line without its newline with
// ErrPartialLine; at the end of the stream it returns io.EOF. The slice
// is the caller's. Both sides of the protocol read with it.
func ReadLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > limit {
			return nil, ErrLineTooLong
		}
		switch err {
		case nil:
			return append(line, frag[:len(frag)-1]...), nil
		case bufio.ErrBufferFull:
			line = append(line, frag...)
		default:
			if err == io.EOF && len(line)+len(frag) > 0 {
				return nil, ErrPartialLine
			}
			return nil, err
		}
	}
}
