package radiotest

import (
	"errors"
	"testing"

	"github.com/airq/airq/radio"
)

func TestInjectReadWriteClose(t *testing.T) {
	d := New()
	d.Inject([]byte{1, 2, 3})
	bufs := [][]byte{make([]byte, 8), make([]byte, 8)}
	sizes := make([]int, 2)
	n, err := d.ReadBatch(bufs, sizes)
	if err != nil || n != 1 || sizes[0] != 3 || bufs[0][2] != 3 {
		t.Fatalf("read %d %v %v", n, sizes, err)
	}
	if _, err := d.WriteBatch([][]byte{{9}}); err != nil {
		t.Fatal(err)
	}
	if w := d.Written(); len(w) != 1 || w[0][0] != 9 {
		t.Errorf("written %v", w)
	}
	done := make(chan error)
	go func() { _, err := d.ReadBatch(bufs, sizes); done <- err }()
	d.Close()
	d.Close()
	if err := <-done; !errors.Is(err, radio.ErrClosed) {
		t.Errorf("read after close: %v", err)
	}
}
