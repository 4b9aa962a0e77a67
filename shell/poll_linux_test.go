package shell

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/inject"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/netnstest"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/tap"
	"golang.org/x/sys/unix"
)

// airPeer is the far end of a veth pair standing in for the air: a
// blocking packet socket with a receive timeout.
type airPeer struct{ fd int }

func openAirPeer(t *testing.T, name string) *airPeer {
	t.Helper()
	ifi, err := net.InterfaceByName(name)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, int(htons(unix.ETH_P_ALL)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	tv := unix.NsecToTimeval((10 * time.Second).Nanoseconds())
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		t.Fatal(err)
	}
	if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: ifi.Index}); err != nil {
		t.Fatal(err)
	}
	return &airPeer{fd}
}

// await reads frames until one of the management subtype arrives.
func (p *airPeer) await(t *testing.T, subtype uint8) ieee80211.Frame {
	t.Helper()
	buf := make([]byte, radio.MaxFrame)
	for {
		n, err := unix.Read(p.fd, buf)
		if err != nil {
			t.Fatalf("waiting for subtype %d: %v", subtype, err)
		}
		frames := sent(t, [][]byte{bytes.Clone(buf[:n])})
		if got := frames[subtype]; len(got) > 0 {
			return got[0]
		}
	}
}

// TestIntegrationRunPolled: with a real radio socket and a real TAP, Run
// drives the core from one locked goroutine waiting on its own epoll set:
// a probe request from the air is answered, a control request is served
// while the loop waits, and cancelling stops it with the shutdown's
// deauthentication on the air.
func TestIntegrationRunPolled(t *testing.T) {
	netnstest.Enter(t)
	netnstest.NeedTUN(t)
	netnstest.IP(t, "link", "add", "air0", "type", "veth", "peer", "name", "air1")
	netnstest.IP(t, "link", "set", "air1", "up")
	dev, err := inject.Open("air0", inject.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wired, err := tap.Open("ap0", tap.Options{})
	if err != nil {
		t.Fatal(err)
	}
	netnstest.WaitRunning(t, "air0", "air1")
	peer := openAirPeer(t, "air1")
	if p := newPoller(dev, wired, slog.New(slog.DiscardHandler)); p == nil {
		t.Fatal("no poller for an inject.Device and a tap.Device")
	} else {
		p.close()
	}

	core, err := ap.New(ap.Config{SSID: "polled", BSSID: bssid, Channel: 6})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := ListenControl(filepath.Join(t.TempDir(), "airqd.sock"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, core, dev, wired, slog.New(slog.DiscardHandler), func() { close(ready) }, WithControl(srv))
	}()
	<-ready
	peer.await(t, ieee80211.SubtypeBeacon)

	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2437, Signal: -50, HasSignal: true})
	req := append(rt, ieee80211.AppendProbeReq(nil, sta, "", []byte{0x82, 0x84, 0x8b, 0x96}, 1)...)
	if _, err := unix.Write(peer.fd, req); err != nil {
		t.Fatal(err)
	}
	if resp := peer.await(t, ieee80211.SubtypeProbeResp); resp.Addr1() != sta {
		t.Fatalf("probe response to %v", resp.Addr1())
	}

	// The loop is parked in epoll_wait: the request must wake it.
	if _, err := srv.Call(context.Background(), ctl.Request{Op: ctl.OpStatus}); err != nil {
		t.Fatalf("control request: %v", err)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
	if deauth := peer.await(t, ieee80211.SubtypeDeauth); !deauth.Addr1().IsBroadcast() {
		t.Errorf("shutdown deauthentication to %v", deauth.Addr1())
	}
}
