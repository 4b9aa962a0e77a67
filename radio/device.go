package radio

import "errors"

// ErrClosed is returned by a Device's methods after Close.
var ErrClosed = errors.New("radio: device closed")

// Device moves radiotap-framed 802.11 frames to and from the air.
//
// ReadBatch blocks until at least one frame is available, copies up to
// len(bufs) frames into bufs[i][:cap(bufs[i])] and stores each frame's length
// in sizes[i]. It returns the number of frames read. The caller owns bufs; a
// frame that does not fit is truncated and counted by the device. ReadBatch
// returns received frames and TX-status echoes alike; frames the device itself
// sent out (seen as outgoing by a second socket) are never returned.
//
// WriteBatch transmits bufs[i] (radiotap TX header + 802.11 frame) in order and
// returns how many were handed to the kernel. It does not retain bufs.
//
// One goroutine may call ReadBatch while another calls WriteBatch. Close
// unblocks a pending ReadBatch, which then returns ErrClosed; Close may be
// called more than once.
type Device interface {
	ReadBatch(bufs [][]byte, sizes []int) (int, error)
	WriteBatch(bufs [][]byte) (int, error)
	Close() error
}

// MaxFrame is the largest radiotap+802.11 frame airq reads or writes: an
// 11454-octet VHT MPDU plus a generous radiotap header.
const MaxFrame = 11454 + 256
