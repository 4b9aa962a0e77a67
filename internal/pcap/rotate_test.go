package pcap

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The first frame the bound drops calls OnFull, once; the frames before it
// are all in the file.
func TestWriterOnFull(t *testing.T) {
	const limit = FileHeader + 10*(RecordHeader+100)
	w, _ := create(t, limit)
	calls, writtenAtCall := 0, uint64(0)
	w.OnFull(func() { calls++; writtenAtCall = w.Written() })
	frame := make([]byte, 100)
	for range 25 {
		w.Write(time.Now(), frame)
	}
	w.Close()
	w.Write(time.Now(), frame) // after Close: dropped, but not for the bound
	if calls != 1 || writtenAtCall != 10 {
		t.Errorf("OnFull called %d times, after %d frames; want once, after 10", calls, writtenAtCall)
	}
}

// ringFiles opens a ring's files in a fresh directory, as airqd names them.
func ringFiles(t *testing.T) (string, func(int) (io.WriteCloser, error)) {
	path := filepath.Join(t.TempDir(), "airq.pcap")
	return path, func(n int) (io.WriteCloser, error) { return os.Create(RingName(path, n)) }
}

// A ring of three files of ten frames each keeps the last frames: past the
// third file the first is overwritten, each file is a whole capture, and
// nothing is dropped or reported full.
func TestRotating(t *testing.T) {
	const limit = FileHeader + 10*(RecordHeader+100)
	path, open := ringFiles(t)
	w, err := NewRotating(open, limit, 3)
	if err != nil {
		t.Fatal(err)
	}
	w.OnFull(func() { t.Error("a rotating capture reported full") })
	frame := make([]byte, 100)
	for i := range 45 {
		binary.LittleEndian.PutUint32(frame, uint32(i))
		w.Write(time.Unix(int64(i), 0), frame)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Written() != 45 || w.Dropped() != 0 || w.Rotations() != 4 {
		t.Errorf("written %d, dropped %d, rotations %d; want 45, 0, 4", w.Written(), w.Dropped(), w.Rotations())
	}
	// Frames 0-9 went to file 0, 10-19 to 1, 20-29 to 2, 30-39 over file 0,
	// 40-44 over file 1.
	for n, first := range []int{30, 40, 20} {
		recs := readAll(t, RingName(path, n))
		want := 10
		if n == 1 {
			want = 5
		}
		if len(recs) != want {
			t.Fatalf("file %d: %d frames, want %d", n, len(recs), want)
		}
		if got := int(binary.LittleEndian.Uint32(recs[0].data)); got != first {
			t.Errorf("file %d starts with frame %d, want %d", n, got, first)
		}
	}
	if RingName(path, 0) != path || RingName(path, 2) != path+"2" {
		t.Errorf("names %q %q", RingName(path, 0), RingName(path, 2))
	}
}

// A frame larger than a whole file is dropped without turning the ring; a
// file that cannot be opened stops the capture with its error.
func TestRotatingLimits(t *testing.T) {
	const limit = FileHeader + RecordHeader + 100
	_, open := ringFiles(t)
	w, err := NewRotating(open, limit, 2)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(time.Now(), make([]byte, 101))
	if w.Rotations() != 0 || w.Dropped() != 1 {
		t.Errorf("rotations %d, dropped %d", w.Rotations(), w.Dropped())
	}
	w.Close()

	opened := 0
	w, err = NewRotating(func(n int) (io.WriteCloser, error) {
		if opened++; opened > 1 {
			return nil, errors.New("no space")
		}
		return open(n)
	}, limit, 2)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		w.Write(time.Now(), make([]byte, 100))
	}
	if err := w.Close(); err == nil || w.Written() != 1 || w.Dropped() != 2 {
		t.Errorf("close %v, written %d, dropped %d", err, w.Written(), w.Dropped())
	}
	if _, err := NewRotating(open, limit, 1); err == nil {
		t.Error("a ring of one file accepted")
	}
}
