package handshake

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// holdsTXGTK fails the test unless every peer has the GTK the AP sends
// group frames with.
func holdsTXGTK(t *testing.T, l *link, peers ...*peer) {
	t.Helper()
	id, key := l.txGTK()
	for _, p := range peers {
		if k, ok := p.gtkOf(id); !ok || k != key {
			t.Errorf("station %v lacks the GTK the AP sends with (key ID %d): its group frames are lost", p.s.Addr(), id)
		}
	}
}

func isGroupMsg(f []byte) bool {
	k, err := rsn.ParseKeyFrame(f)
	return err == nil && k.Info()&rsn.InfoPairwise == 0
}

// TestGTKRekeyDuring4Way: a station whose message 3 (with the GTK in use)
// is out when a rekey starts gets the new GTK once its message 4 is in,
// before the AP sends with it.
func TestGTKRekeyDuring4Way(t *testing.T) {
	l := newLink(t, setup{})
	var m4 []byte
	l.drop = func(spa ieee80211.MAC, toSTA bool, f []byte) bool {
		if spa == sta2 && !toSTA && len(keyFrame(t, f).KeyData()) == 0 && m4 == nil {
			m4 = f
			return true
		}
		return false
	}
	p2 := l.join(setup{}, sta2)
	l.a.RekeyGTK(l.now)
	l.flush()
	if id, _ := l.txGTK(); id != 1 {
		t.Fatalf("the AP sends with GTK %d while station 2's handshake is under way", id)
	}
	l.deliver(sta2, true, m4)
	l.runUntil(l.now + 5*time.Second)
	if id, _ := l.txGTK(); id != 2 || !p2.s.Authorized() {
		t.Fatalf("rekey not done: GTK %d, %s", id, kinds(l.ap))
	}
	holdsTXGTK(t, l, l.peers...)
}

// TestSecondRekeyWaits: a rekey asked for while one waits for a station
// (wpa_group_rekey, wpa_strict_rekey) starts once the AP has switched: the
// key ID the AP sends with keeps the key the stations have.
func TestSecondRekeyWaits(t *testing.T) {
	l := newLink(t, setup{})
	p2 := l.join(setup{}, sta2)
	l.drop = func(spa ieee80211.MAC, toSTA bool, f []byte) bool { return spa == sta2 && toSTA && isGroupMsg(f) }
	l.a.RekeyGTK(l.now) // station 1 answers, station 2 does not
	l.flush()
	l.now += 200 * time.Millisecond
	l.a.RekeyGTK(l.now)
	l.flush()
	holdsTXGTK(t, l, l.peers[0])
	l.drop = nil
	l.runUntil(l.now + 10*time.Second)
	if n := count(l.ap, ActInstallGTK); n != 3 || !p2.s.Authorized() {
		t.Fatalf("%d GTKs for sending: %s", n, kinds(l.ap))
	}
	holdsTXGTK(t, l, l.peers...)
}

// TestMessage3DuringRekey: a station whose message 3 goes out while a
// rekey waits gets the GTK and IGTK the AP sends with, with their Key RSC
// and IPN, and then the new ones, with RSC and IPN 0, by a group
// handshake.
func TestMessage3DuringRekey(t *testing.T) {
	pn := map[int]uint64{1: 5000, 2: 7, 4: 300, 5: 9}
	su := setup{mfp: rsn.MFPOptional, cfg: func(c *Config) { c.GroupTXPN = func(id int) uint64 { return pn[id] } }}
	l := newLink(t, su)
	l.a.RekeyGTK(l.now) // done: the AP sends with GTK 2 and IGTK 5
	l.flush()
	l.drop = func(spa ieee80211.MAC, toSTA bool, f []byte) bool { return spa == staMAC && toSTA && isGroupMsg(f) }
	l.now += time.Minute
	l.a.RekeyGTK(l.now) // GN 1 and 4 wait for station 1
	l.flush()
	p2 := l.join(su, sta2)
	var got []rsn.KeyData
	var rsc []uint64
	for _, a := range l.ap {
		if a.Kind != ActSend || a.Addr != sta2 || keyFrame(t, a.Frame).Info()&rsn.InfoEncrypted == 0 {
			continue
		}
		k := keyFrame(t, a.Frame)
		plain, err := rsn.UnwrapKeyData(nil, &p2.s.ptk.KEK, k.KeyData())
		d, _ := rsn.ParseKeyData(plain)
		if err != nil {
			t.Fatal(err)
		}
		got, rsc = append(got, d), append(rsc, k.RSC())
	}
	if len(got) != 2 {
		t.Fatalf("%d frames with keys to station 2: %s", len(got), kinds(l.ap))
	}
	m3, g1 := got[0], got[1]
	if m3.GTKKeyID != 2 || rsc[0] != 7 || m3.IGTKKeyID != 5 || m3.IPN != 9 {
		t.Errorf("message 3: GTK %d RSC %d, IGTK %d IPN %d; want the keys in use, 2 (7) and 5 (9)", m3.GTKKeyID, rsc[0], m3.IGTKKeyID, m3.IPN)
	}
	if g1.GTKKeyID != 1 || rsc[1] != 0 || g1.IGTKKeyID != 4 || g1.IPN != 0 {
		t.Errorf("group message 1: GTK %d RSC %d, IGTK %d IPN %d; want the new keys, 1 and 4, unused", g1.GTKKeyID, rsc[1], g1.IGTKKeyID, g1.IPN)
	}
	holdsTXGTK(t, l, p2)
}

// TestPTKRekeyDuringGTKRekey: a station in the middle of a PTK rekey when
// a GTK rekey starts holds the AP's switch until it has the new GTK.
func TestPTKRekeyDuringGTKRekey(t *testing.T) {
	l := newLink(t, setup{})
	p2 := l.join(setup{}, sta2)
	l.drop = func(spa ieee80211.MAC, toSTA bool, _ []byte) bool { return spa == sta2 && toSTA }
	p2.s.RekeyPTK(l.now) // message 1 lost
	l.flush()
	l.a.RekeyGTK(l.now)
	l.flush()
	if id, _ := l.txGTK(); id != 1 {
		t.Fatalf("the AP switched to GTK %d while station 2, which holds GTK 1, rekeys its PTK", id)
	}
	l.drop = nil
	l.runUntil(l.now + 5*time.Second)
	if id, _ := l.txGTK(); id != 2 || !p2.s.Authorized() || count(l.ap, ActDeauth) != 0 {
		t.Fatalf("GTK %d, %s", id, kinds(l.ap))
	}
	holdsTXGTK(t, l, l.peers...)
}

// TestGTKRekeyRequestsLimited: stations get at most one GTK rekey per 10 s
// by asking; the rest are counted.
func TestGTKRekeyRequestsLimited(t *testing.T) {
	l := newLink(t, setup{})
	p2 := l.join(setup{}, sta2)
	l.sup.RequestRekey(l.now, false)
	l.flush()
	l.now += 9 * time.Second
	p2.sup.RequestRekey(l.now, false)
	l.flush()
	if n := count(l.ap, ActInstallGTK); n != 2 || l.a.Counters().RekeyRequestsIgnored != 1 {
		t.Fatalf("%d GTKs for sending after two requests 9 s apart; %+v", n, l.a.Counters())
	}
	l.now += time.Second
	p2.sup.RequestRekey(l.now, false)
	l.flush()
	if n := count(l.ap, ActInstallGTK); n != 3 {
		t.Fatalf("%d GTKs for sending after a request 10 s later", n)
	}
}
