package inject

// The receive filter is a classic BPF program run by the kernel on every
// frame before it is queued to the receive socket. A monitor interface hands
// the socket everything the radio hears: ACKs, RTS/CTS, other networks'
// beacons and data. The filter sheds what an access point never needs so that
// none of it costs a wakeup, a copy or receive-buffer space (where it could
// crowd out TX-status echoes).
//
// Kept:
//   - TX-status echoes: radiotap present word with TX_FLAGS (bit 15), which
//     mac80211 sets only on the copies of frames we injected; cut after
//     the radiotap header and EchoKeep bytes unless Options.FullEchoes;
//   - PS-Poll and BlockAckReq control frames addressed to us;
//   - every management and data frame whose addr1 is our address or another
//     BSSID of the radio (Options.Others), probe requests among them
//     (directed to our BSSID: roaming, keep-alive and hidden-SSID clients
//     send these);
//   - group-addressed probe requests (wildcard or directed SSID);
//   - group-addressed management frames of our BSSes (addr3 = one of them);
//   - while scanning, every beacon and probe response, whoever sends it.
//
// Dropped: every other control frame (ACK, RTS, CTS, CTS-to-self, CF-End,
// BlockAck), and frames for other BSSes, unicast or group-addressed.
//
// The radiotap header has a variable length: the program reads it_len (a
// little-endian u16 at offset 2) into X and addresses the 802.11 header
// relative to it. A frame too short for a load is dropped by the kernel.

import (
	"strconv"

	"golang.org/x/sys/unix"
)

// Classic BPF opcodes (<linux/filter.h>, <linux/bpf_common.h>).
const (
	bpfLD, bpfALU, bpfJMP, bpfRET, bpfMISC = 0x00, 0x04, 0x05, 0x06, 0x07
	bpfW, bpfH, bpfB                       = 0x00, 0x08, 0x10
	bpfABS, bpfIND                         = 0x20, 0x40
	bpfLSH, bpfOR, bpfAND                  = 0x60, 0x40, 0x50
	bpfJA, bpfJEQ, bpfJSET                 = 0x00, 0x10, 0x40
	bpfK, bpfX, bpfA                       = 0x00, 0x08, 0x10
	bpfTAX, bpfTXA                         = 0x00, 0x80
	bpfADD                                 = 0x00
)

const (
	keepLen = 0xffff_ffff // accept the whole frame
	// 802.11 frame-control first octet: subtype<<4 | type<<2.
	fcMask        = 0xfc
	fcProbeReq    = 0x40
	fcProbeResp   = 0x50
	fcBeacon      = 0x80
	fcBAR         = 0x84
	fcPSPoll      = 0xa4
	typeMask      = 0x0c
	typeCtrl      = 0x04
	typeMgmt      = 0x00
	presentTXFlag = 0x80 // bit 15 of the present word: bit 7 of octet 5
)

// asm assembles a program with symbolic jump targets.
type asm struct {
	ins    []unix.SockFilter
	labels map[string]int
	fix    []fixup
}

type fixup struct {
	at     int
	jt, jf string
}

func (a *asm) op(code uint16, k uint32) { a.ins = append(a.ins, unix.SockFilter{Code: code, K: k}) }

// jump appends a conditional jump; "" means the next instruction.
func (a *asm) jump(code uint16, k uint32, jt, jf string) {
	a.fix = append(a.fix, fixup{len(a.ins), jt, jf})
	a.op(bpfJMP|code|bpfK, k)
}

func (a *asm) label(name string) { a.labels[name] = len(a.ins) }

func (a *asm) assemble() []unix.SockFilter {
	for _, f := range a.fix {
		off := func(l string) uint8 {
			if l == "" {
				return 0
			}
			d := a.labels[l] - f.at - 1
			if d < 0 || d > 255 {
				panic("inject: BPF jump out of range to " + l)
			}
			return uint8(d)
		}
		a.ins[f.at].Jt, a.ins[f.at].Jf = off(f.jt), off(f.jf)
	}
	return a.ins
}

// rxFilter builds the receive filter for our address and the radio's other
// BSSIDs (others: each BSS beside the first has its own, held for the
// hardware's ACKs by an interface of its own); scanning adds every beacon
// and probe response. Echoes keep echoLen bytes after their radiotap
// header (keepLen: all of them).
func rxFilter(ours [6]byte, others [][6]byte, scanning bool, echoLen uint32) []unix.SockFilter {
	a := &asm{labels: map[string]int{}}
	addrs := append([][6]byte{ours}, others...)

	// X = it_len.
	a.op(bpfLD|bpfB|bpfABS, 3)
	a.op(bpfALU|bpfLSH|bpfK, 8)
	a.op(bpfMISC|bpfTAX, 0)
	a.op(bpfLD|bpfB|bpfABS, 2)
	a.op(bpfALU|bpfOR|bpfX, 0)
	a.op(bpfMISC|bpfTAX, 0)
	// TX-status echo?
	a.op(bpfLD|bpfB|bpfABS, 5)
	a.jump(bpfJSET, presentTXFlag, "echo", "")
	// A = frame control octet 0, type and subtype.
	a.op(bpfLD|bpfB|bpfIND, 0)
	a.op(bpfALU|bpfAND|bpfK, fcMask)
	a.jump(bpfJEQ, fcPSPoll, "addr1", "")
	a.jump(bpfJEQ, fcBAR, "addr1", "")
	if scanning {
		a.jump(bpfJEQ, fcBeacon, "keep", "")
		a.jump(bpfJEQ, fcProbeResp, "keep", "")
	}
	a.op(bpfALU|bpfAND|bpfK, typeMask)
	a.jump(bpfJEQ, typeCtrl, "drop", "")

	// Management and data: addr1 one of ours?
	a.label("addr1")
	a.matchAny(addrs, 4, "addr1.", "group")

	// addr1 not ours: group-addressed probe requests, and group-addressed
	// management frames of our BSSes, are kept.
	a.label("group")
	a.op(bpfLD|bpfB|bpfIND, 0) // control frames arrive here only as PS-Poll/BAR not for us
	a.op(bpfALU|bpfAND|bpfK, typeMask)
	a.jump(bpfJEQ, typeMgmt, "", "drop")
	a.op(bpfLD|bpfB|bpfIND, 4)
	a.jump(bpfJSET, 0x01, "", "drop") // unicast for someone else
	a.op(bpfLD|bpfB|bpfIND, 0)
	a.op(bpfALU|bpfAND|bpfK, fcMask)
	a.jump(bpfJEQ, fcProbeReq, "keep", "")
	a.matchAny(addrs, 16, "addr3.", "drop") // addr3

	a.label("drop")
	a.op(bpfRET|bpfK, 0)
	a.label("keep")
	a.op(bpfRET|bpfK, keepLen)
	a.label("echo")
	if echoLen == keepLen {
		a.op(bpfRET|bpfK, keepLen)
		return a.assemble()
	}
	// it_len + echoLen: the kernel keeps the whole frame when it is shorter.
	a.op(bpfMISC|bpfTXA, 0)
	a.op(bpfALU|bpfADD|bpfK, echoLen)
	a.op(bpfRET|bpfA, 0)
	return a.assemble()
}

// matchAny jumps to "keep" when the address at offset off of the 802.11
// header (X) is one of addrs, else to miss; prefix names its labels.
func (a *asm) matchAny(addrs [][6]byte, off uint32, prefix, miss string) {
	for i, m := range addrs {
		next := miss
		if i < len(addrs)-1 {
			next = prefix + strconv.Itoa(i+1)
		}
		hi := uint32(m[0])<<24 | uint32(m[1])<<16 | uint32(m[2])<<8 | uint32(m[3])
		lo := uint32(m[4])<<8 | uint32(m[5])
		a.op(bpfLD|bpfW|bpfIND, off)
		a.jump(bpfJEQ, hi, "", next)
		a.op(bpfLD|bpfH|bpfIND, off+4)
		a.jump(bpfJEQ, lo, "keep", next)
		if next != miss {
			a.label(next)
		}
	}
}
