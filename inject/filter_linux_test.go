package inject

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/netnstest"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"golang.org/x/sys/unix"
)

// runBPF is a classic BPF interpreter for the instructions rxFilter uses,
// with the kernel's semantics: loads are big-endian, a load past the end of
// the packet ends the program with 0 (drop).
func runBPF(t *testing.T, prog []unix.SockFilter, pkt []byte) uint32 {
	t.Helper()
	var a, x uint32
	load := func(off uint32, size uint32) (uint32, bool) {
		if uint64(off)+uint64(size) > uint64(len(pkt)) {
			return 0, false
		}
		switch size {
		case 1:
			return uint32(pkt[off]), true
		case 2:
			return uint32(binary.BigEndian.Uint16(pkt[off:])), true
		}
		return binary.BigEndian.Uint32(pkt[off:]), true
	}
	sizes := map[uint16]uint32{bpfW: 4, bpfH: 2, bpfB: 1}
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch cls := in.Code & 0x07; cls {
		case bpfLD:
			off := in.K
			if in.Code&0xe0 == bpfIND {
				off += x
			} else if in.Code&0xe0 != bpfABS {
				t.Fatalf("pc %d: unsupported load mode %#x", pc, in.Code)
			}
			v, ok := load(off, sizes[in.Code&0x18])
			if !ok {
				return 0
			}
			a = v
		case bpfALU:
			src := in.K
			if in.Code&bpfX != 0 {
				src = x
			}
			switch in.Code & 0xf0 {
			case bpfLSH:
				a <<= src
			case bpfOR:
				a |= src
			case bpfAND:
				a &= src
			case bpfADD:
				a += src
			default:
				t.Fatalf("pc %d: unsupported ALU op %#x", pc, in.Code)
			}
		case bpfMISC:
			switch in.Code {
			case bpfMISC | bpfTAX:
				x = a
			case bpfMISC | bpfTXA:
				a = x
			default:
				t.Fatalf("pc %d: unsupported misc op %#x", pc, in.Code)
			}
		case bpfJMP:
			var cond bool
			switch in.Code & 0xf0 {
			case bpfJEQ:
				cond = a == in.K
			case bpfJSET:
				cond = a&in.K != 0
			case bpfJA:
				pc += int(in.K)
				continue
			default:
				t.Fatalf("pc %d: unsupported jump %#x", pc, in.Code)
			}
			if cond {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case bpfRET:
			if in.Code&bpfA != 0 {
				return a
			}
			return in.K
		default:
			t.Fatalf("pc %d: unsupported class %#x", pc, cls)
		}
	}
	t.Fatal("program ran off its end")
	return 0
}

var (
	ours  = ieee80211.MAC{0x02, 0, 0, 0, 0x02, 0}
	other = ieee80211.MAC{0x02, 0, 0, 0, 0x07, 0}
	sta   = ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0}
)

// rx prefixes an 802.11 frame with the radiotap header mac80211 puts on a
// received frame (TSFT, flags, rate, channel, signal, antenna, RX flags).
func rx(f []byte) []byte {
	h := radiotap.AppendRx(nil, radio.RxInfo{HasTSFT: true, TSFT: 1, Freq: 2412, HasSignal: true, Signal: -40,
		Rate: radio.LegacyRate(54000)})
	return append(h, f...)
}

// echo prefixes f with a TX-status header.
func echo(f []byte) []byte {
	return append(radiotap.AppendEcho(nil, radio.TxStatus{Acked: false, Rate: radio.LegacyRate(1000)}), f...)
}

// longRx has a 272-byte radiotap header, so that it_len's high octet matters.
func longRx(f []byte) []byte {
	h := make([]byte, 272)
	binary.LittleEndian.PutUint16(h[2:], 272)
	return append(h, f...)
}

func ctrl(subtype uint8, ra, ta ieee80211.MAC) []byte {
	f := []byte{subtype<<4 | ieee80211.TypeCtrl<<2, 0, 0, 0}
	f = append(f, ra[:]...)
	if subtype != ieee80211.SubtypeACK && subtype != ieee80211.SubtypeCTS {
		f = append(f, ta[:]...)
	}
	return f
}

func mgmt(subtype uint8, da, sa, bssid ieee80211.MAC) []byte {
	return append(ieee80211.AppendMgmtHeader(nil, subtype, da, sa, bssid, 7), 0, 0, 0, 0)
}

type filterCase struct {
	name     string
	frame    []byte
	keep     bool // when not scanning
	keepScan bool
}

func filterCases() []filterCase {
	groupData := ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: ieee80211.FCFromDS,
		Addr1: ieee80211.MAC{0x01, 0, 0x5e, 0, 0, 1}, Addr2: other})
	c := []filterCase{
		{"ACK to us", rx(ctrl(ieee80211.SubtypeACK, ours, ours)), false, false},
		{"RTS to us", rx(ctrl(ieee80211.SubtypeRTS, ours, sta)), false, false},
		{"CTS to us", rx(ctrl(ieee80211.SubtypeCTS, ours, ours)), false, false},
		{"CTS-to-self of another", rx(ctrl(ieee80211.SubtypeCTS, other, other)), false, false},
		{"BlockAck to us", rx(ctrl(ieee80211.SubtypeBlockAck, ours, sta)), false, false},
		{"PS-Poll to us", rx(ieee80211.AppendPSPoll(nil, 1, ours, sta)), true, true},
		{"PS-Poll to another", rx(ieee80211.AppendPSPoll(nil, 1, other, sta)), false, false},
		{"BAR to us", rx(ctrl(ieee80211.SubtypeBlockAckReq, ours, sta)), true, true},
		{"BAR to another", rx(ctrl(ieee80211.SubtypeBlockAckReq, other, sta)), false, false},
		{"null data to us", rx(ieee80211.AppendNullData(nil, ours, sta, 1, true)), true, true},
		{"null data to another", rx(ieee80211.AppendNullData(nil, other, sta, 1, true)), false, false},
		{"multicast data of another", rx(groupData), false, false},
		{"auth to us", rx(mgmt(ieee80211.SubtypeAuth, ours, sta, ours)), true, true},
		{"broadcast probe request", rx(mgmt(ieee80211.SubtypeProbeReq, ieee80211.Broadcast, sta, ieee80211.Broadcast)), true, true},
		{"probe request to us", rx(mgmt(ieee80211.SubtypeProbeReq, ours, sta, ours)), true, true},
		{"probe request to us, wildcard BSSID", rx(mgmt(ieee80211.SubtypeProbeReq, ours, sta, ieee80211.Broadcast)), true, true},
		{"probe request to another", rx(mgmt(ieee80211.SubtypeProbeReq, other, sta, other)), false, false},
		{"beacon of another", rx(mgmt(ieee80211.SubtypeBeacon, ieee80211.Broadcast, other, other)), false, true},
		{"probe response of another", rx(mgmt(ieee80211.SubtypeProbeResp, sta, other, other)), false, true},
		{"broadcast deauth of our BSS", rx(mgmt(ieee80211.SubtypeDeauth, ieee80211.Broadcast, sta, ours)), true, true},
		{"broadcast deauth of another", rx(mgmt(ieee80211.SubtypeDeauth, ieee80211.Broadcast, other, other)), false, false},
		{"echo of our beacon", echo(mgmt(ieee80211.SubtypeBeacon, ieee80211.Broadcast, ours, ours)), true, true},
		{"echo of a probe response to an absent station", echo(mgmt(ieee80211.SubtypeProbeResp, other, ours, ours)), true, true},
		{"long radiotap: data to us", longRx(ieee80211.AppendNullData(nil, ours, sta, 1, false)), true, true},
		{"long radiotap: data to another", longRx(ieee80211.AppendNullData(nil, other, sta, 1, false)), false, false},
		{"truncated", rx([]byte{0x08, 0x01, 0}), false, false},
		{"radiotap only", []byte{0, 0, 8, 0, 0, 0, 0, 0}, false, false},
	}
	return c
}

func TestFilterProgram(t *testing.T) {
	for _, scanning := range []bool{false, true} {
		for _, full := range []bool{false, true} {
			prog := rxFilter(ours, nil, scanning, echoLen(Options{FullEchoes: full}))
			if len(prog) > unix.BPF_MAXINSNS {
				t.Fatalf("program too long: %d", len(prog))
			}
			for _, c := range filterCases() {
				want := c.keep
				if scanning {
					want = c.keepScan
				}
				got := runBPF(t, prog, c.frame)
				if (got != 0) != want {
					t.Errorf("scanning=%v %s: kept %v, want %v", scanning, c.name, got != 0, want)
				}
				// how much is kept: echoes cut after their 802.11 header
				// unless full, the rest whole
				wantLen := uint32(keepLen)
				if isEcho := c.frame[5]&presentTXFlag != 0; isEcho && !full {
					wantLen = uint32(binary.LittleEndian.Uint16(c.frame[2:])) + EchoKeep
				}
				if got != 0 && got != wantLen {
					t.Errorf("scanning=%v full=%v %s: keeps %d bytes, want %d", scanning, full, c.name, got, wantLen)
				}
			}
		}
	}
}

// A radio with a second BSS keeps the frames to its BSSID as the first's
// (its stations' authentications, data and PS-Polls, its group-addressed
// management frames), and still drops other networks'; a filter without it
// drops them.
func TestFilterProgramSecondBSS(t *testing.T) {
	second := ieee80211.MAC{0x02, 0, 0, 0, 0x02, 1}
	cases := []filterCase{
		{"auth to the second BSS", rx(mgmt(ieee80211.SubtypeAuth, second, sta, second)), true, true},
		{"null data to the second BSS", rx(ieee80211.AppendNullData(nil, second, sta, 1, true)), true, true},
		{"PS-Poll to the second BSS", rx(ieee80211.AppendPSPoll(nil, 1, second, sta)), true, true},
		{"broadcast deauth of the second BSS", rx(mgmt(ieee80211.SubtypeDeauth, ieee80211.Broadcast, sta, second)), true, true},
		{"auth to the first", rx(mgmt(ieee80211.SubtypeAuth, ours, sta, ours)), true, true},
		{"auth to another", rx(mgmt(ieee80211.SubtypeAuth, other, sta, other)), false, false},
		{"broadcast deauth of another", rx(mgmt(ieee80211.SubtypeDeauth, ieee80211.Broadcast, other, other)), false, false},
		{"beacon of another", rx(mgmt(ieee80211.SubtypeBeacon, ieee80211.Broadcast, other, other)), false, true},
	}
	for _, scanning := range []bool{false, true} {
		with := rxFilter(ours, [][6]byte{second, {0x02, 0, 0, 0, 0x02, 2}}, scanning, EchoKeep)
		without := rxFilter(ours, nil, scanning, EchoKeep)
		for _, c := range cases {
			want := c.keep
			if scanning {
				want = c.keepScan
			}
			if got := runBPF(t, with, c.frame) != 0; got != want {
				t.Errorf("scanning=%v %s: kept %v, want %v", scanning, c.name, got, want)
			}
		}
		if runBPF(t, without, cases[0].frame) != 0 {
			t.Errorf("scanning=%v: a filter of one BSS keeps %s", scanning, cases[0].name)
		}
	}
}

// TestIntegrationEchoSnap: the kernel cuts a long echo after its radiotap
// header and EchoKeep bytes, which still parse as its TX status and 802.11
// header, and FullEchoes keeps it whole; received frames are never cut.
func TestIntegrationEchoSnap(t *testing.T) {
	netnstest.Enter(t)
	vethPair(t, "air0", "air1")
	down := ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: ieee80211.FCFromDS, Addr1: sta, Addr2: ours, Addr3: ours, QoS: true})
	up := ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: ours, Addr2: sta, Addr3: ours, QoS: true})
	longEcho := echo(append(down, make([]byte, 1400)...))
	longRx := rx(append(up, make([]byte, 1400)...))
	for _, full := range []bool{false, true} {
		d, err := Open("air0", Options{Address: ours, FullEchoes: full})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		netnstest.WaitRunning(t, "air0", "air1")
		peer := openRaw(t, "air1")
		sentinel := echo(mgmt(ieee80211.SubtypeAction, sta, ours, ours))
		peer.send(t, longEcho)
		peer.send(t, longRx)
		peer.send(t, sentinel)
		got := readUntil(t, d, sentinel)
		d.Close()
		wantEcho := longEcho
		if !full {
			wantEcho = longEcho[:int(binary.LittleEndian.Uint16(longEcho[2:]))+EchoKeep]
		}
		if !got[string(wantEcho)] || !got[string(longRx)] || len(got) != 2 {
			lens := []int{}
			for f := range got {
				lens = append(lens, len(f))
			}
			t.Fatalf("full=%v: got frames of %v bytes, want the echo's %d and the received frame's %d", full, lens, len(wantEcho), len(longRx))
		}
		var st radio.TxStatus
		var info radio.RxInfo
		n, isEcho, err := radiotap.Parse(wantEcho, &info, &st)
		if err != nil || !isEcho {
			t.Fatalf("full=%v: the kept echo does not parse as one: %v", full, err)
		}
		if fr, err := ieee80211.ParseFrame(wantEcho[n:]); err != nil || fr.Addr1() != sta || fr.Addr2() != ours {
			t.Fatalf("full=%v: the kept echo's 802.11 header: %v", full, err)
		}
	}
}

// TestIntegrationFilter sends the filter cases from a raw socket through a
// veth pair into a Device opened with our address, so that the kernel runs
// the program on the real socket: exactly the frames to keep arrive. Then it
// switches to scanning and checks that foreign beacons come through.
func TestIntegrationFilter(t *testing.T) {
	netnstest.Enter(t)
	vethPair(t, "air0", "air1")
	d, err := Open("air0", Options{Address: ours})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer d.Close()
	netnstest.WaitRunning(t, "air0", "air1")
	peer := openRaw(t, "air1")

	sentinel := echo(mgmt(ieee80211.SubtypeAction, sta, ours, ours))
	shed := 0 // frames the filter must have dropped so far
	run := func(scanning bool) {
		t.Helper()
		names := map[string]string{}
		want := map[string]bool{}
		for _, c := range filterCases() {
			if len(c.frame) < 14 { // a packet socket refuses to send less than an Ethernet header
				continue
			}
			names[string(c.frame)] = c.name
			if c.keep && !scanning || c.keepScan && scanning {
				want[c.name] = true
			} else {
				shed++
			}
			peer.send(t, c.frame)
		}
		peer.send(t, sentinel)
		got := map[string]bool{}
		for f := range readUntil(t, d, sentinel) {
			name, ok := names[f]
			if !ok {
				t.Errorf("scanning=%v: unexpected frame %x", scanning, f)
			}
			got[name] = true
		}
		for name := range want {
			if !got[name] {
				t.Errorf("scanning=%v: %s was dropped", scanning, name)
			}
		}
		for name := range got {
			if !want[name] {
				t.Errorf("scanning=%v: %s was kept", scanning, name)
			}
		}
	}
	run(false)
	if err := d.SetScanning(true); err != nil {
		t.Fatal(err)
	}
	run(true)
	if err := d.SetScanning(false); err != nil {
		t.Fatal(err)
	}
	run(false)
	// What the interface received less what the filter passed is what it
	// shed (on a veth, unlike a monitor, echoes count as received too).
	received, passed, ok := d.FilterCounts()
	if !ok || int(received-passed) != shed {
		t.Errorf("filter counts: received %d, passed %d (ok %v): %d shed, want %d", received, passed, ok, received-passed, shed)
	}
}

// readUntil returns the frames d receives before stop, as strings.
func readUntil(t *testing.T, d *Device, stop []byte) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	done := make(chan error, 1)
	go func() {
		bufs := make([][]byte, 8)
		for i := range bufs {
			bufs[i] = make([]byte, 2048)
		}
		sizes := make([]int, len(bufs))
		for {
			n, err := d.ReadBatch(bufs, sizes)
			if err != nil {
				done <- err
				return
			}
			for i := range n {
				f := string(bufs[i][:sizes[i]])
				if f == string(stop) {
					done <- nil
					return
				}
				out[f] = true
			}
		}
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ReadBatch: %v", err)
		}
	case <-time.After(timeout):
		d.Close()
		<-done
		t.Fatal("the sentinel frame never arrived")
	}
	return out
}
