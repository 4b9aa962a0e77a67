package ieee80211

import (
	"testing"
)

func TestMgmtBodies(t *testing.T) {
	// Beacon
	b := AppendMgmtHeader(nil, SubtypeBeacon, Broadcast, apMAC, apMAC, 7)
	b = AppendBeaconFixed(b, 0x1122334455, 100, CapESS|CapShortSlotTime)
	b = append(b, beaconIEs()...)
	f, err := ParseFrame(b)
	if err != nil || !f.Is(TypeMgmt, SubtypeBeacon) || f.Seq() != 7 {
		t.Fatalf("beacon frame %v", err)
	}
	bc, err := ParseBeacon(f.Body())
	if err != nil || bc.Timestamp() != 0x1122334455 || bc.Interval() != 100 || bc.Capability() != CapESS|CapShortSlotTime {
		t.Fatalf("beacon body %v", err)
	}
	bc.SetTimestamp(42)
	if bc.Timestamp() != 42 || Beacon(b[TimestampOffset:]).Timestamp() != 42 {
		t.Error("SetTimestamp")
	}
	if _, ok := bc.Elements().Find(ElemTIM); !ok {
		t.Error("TIM missing")
	}

	// Auth, both ways.
	a, err := ParseAuth(AppendAuth(nil, AuthOpen, 2, StatusSuccess))
	if err != nil || a.Algorithm() != AuthOpen || a.Transaction() != 2 || a.Status() != 0 || len(a.Elements()) != 0 {
		t.Errorf("auth %v", err)
	}
	fa, _ := ParseFrame(unhex(t, frameAuthReq))
	if a, err := ParseAuth(fa.Body()); err != nil || a.Transaction() != 1 {
		t.Errorf("hwsim auth %v", err)
	}

	// AssocReq / ReassocReq
	ar := AppendAssocReq(nil, CapESS, 10)
	ar = AppendSSID(ar, "x")
	if r, err := ParseAssocReq(ar); err != nil || r.Capability() != CapESS || r.ListenInterval() != 10 || len(r.Elements()) != 3 {
		t.Errorf("assoc req %v", err)
	}
	if r, err := ParseReassocReq(AppendReassocReq(nil, CapESS, 5, apMAC)); err != nil || r.CurrentAP() != apMAC || r.ListenInterval() != 5 {
		t.Errorf("reassoc req %v", err)
	}

	// AssocResp as hwsim's station logged it: capab=0x421 status=0 aid=1.
	rb := AppendAssocResp(nil, 0x421, StatusSuccess, 1)
	if rb[4] != 0x01 || rb[5] != 0xc0 {
		t.Errorf("AID bits: %x", rb)
	}
	if r, err := ParseAssocResp(rb); err != nil || r.Capability() != 0x421 || r.Status() != 0 || r.AID() != 1 {
		t.Errorf("assoc resp %v", err)
	}
	if r, _ := ParseAssocResp(AppendAssocResp(nil, 0, StatusAPUnableToHandleNewSta, 9)); r.AID() != 0 || r.Status() != 17 {
		t.Error("refused assoc resp")
	}

	if d, err := ParseDeauth(AppendDeauth(nil, ReasonInactivity)); err != nil || d.Reason() != ReasonInactivity {
		t.Errorf("deauth %v", err)
	}
	ac, err := ParseAction(AppendAction(nil, CategoryBlockAck, ActionADDBAReq, 1, 2, 3))
	if err != nil || ac.Category() != CategoryBlockAck || ac.Code() != ActionADDBAReq || len(ac.Body()) != 3 {
		t.Errorf("action %v", err)
	}
	p, err := ParseProbeReq(AppendProbeReq(nil, staMAC, "", Rates2GHz, 3)[MgmtHeaderLen:])
	if ssid, ok := p.Elements().Find(ElemSSID); err != nil || !ok || len(ssid) != 0 {
		t.Error("probe req wildcard SSID")
	}

	for name, parse := range map[string]func([]byte) error{
		"beacon":  func(b []byte) error { _, err := ParseBeacon(b); return err },
		"auth":    func(b []byte) error { _, err := ParseAuth(b); return err },
		"assoc":   func(b []byte) error { _, err := ParseAssocReq(b); return err },
		"reassoc": func(b []byte) error { _, err := ParseReassocReq(b); return err },
		"resp":    func(b []byte) error { _, err := ParseAssocResp(b); return err },
		"deauth":  func(b []byte) error { _, err := ParseDeauth(b); return err },
		"action":  func(b []byte) error { _, err := ParseAction(b); return err },
		"tim":     func(b []byte) error { _, err := ParseTIM(b); return err },
	} {
		if parse([]byte{1}) != ErrBody {
			t.Errorf("%s accepted one byte", name)
		}
	}
}

func TestStationFrames(t *testing.T) {
	f, err := ParseFrame(AppendPSPoll(nil, 1, apMAC, staMAC))
	if err != nil || !f.Is(TypeCtrl, SubtypePSPoll) || f.AID() != 1 || f.Addr1() != apMAC || f.Addr2() != staMAC {
		t.Errorf("PS-Poll %v", err)
	}
	if got := AppendPSPoll(nil, 1, apMAC, staMAC); string(got) != string(unhex(t, framePSPoll)) {
		t.Errorf("PS-Poll bytes %x", got)
	}
	if got := AppendNullData(nil, apMAC, staMAC, 2, true); string(got) != string(unhex(t, frameNullPM)) {
		t.Errorf("null %x", got)
	}
	if got := AppendACK(nil, staMAC); string(got) != string(unhex(t, frameACK)) {
		t.Errorf("ack %x", got)
	}
	h := DataHeader{Flags: FCToDS | FCFromDS | FCOrder, Addr1: apMAC, Addr2: staMAC, Addr3: MAC{2, 0, 0, 0, 3, 0},
		Addr4: MAC{2, 0, 0, 0, 4, 0}, Seq: 7, QoS: true, TID: 5, AMSDU: true}
	got := append(AppendDataHeader(nil, h), 0xde, 0xad)
	if string(got) != string(unhex(t, frameWDS)) || h.Len() != 36 {
		t.Errorf("WDS header %x", got)
	}
}

func TestChannels(t *testing.T) {
	for _, tt := range []struct {
		ch   int
		band Band
		freq int
	}{
		{1, Band2GHz, 2412}, {6, Band2GHz, 2437}, {13, Band2GHz, 2472}, {14, Band2GHz, 2484},
		{36, Band5GHz, 5180}, {149, Band5GHz, 5745}, {165, Band5GHz, 5825}, {177, Band5GHz, 5885}, {184, Band5GHz, 4920},
		{1, Band6GHz, 5955}, {2, Band6GHz, 5935}, {233, Band6GHz, 7115},
	} {
		if f := ChannelToFreq(tt.ch, tt.band); f != tt.freq {
			t.Errorf("ChannelToFreq(%d, %v) = %d, want %d", tt.ch, tt.band, f, tt.freq)
		}
		if c := FreqToChannel(tt.freq); c != tt.ch {
			t.Errorf("FreqToChannel(%d) = %d, want %d", tt.freq, c, tt.ch)
		}
		if b, ok := FreqBand(tt.freq); !ok || b != tt.band {
			t.Errorf("FreqBand(%d) = %v", tt.freq, b)
		}
	}
	for _, f := range []int{0, 2413, 2500, 5181, 9000} {
		if c := FreqToChannel(f); c != 0 {
			t.Errorf("FreqToChannel(%d) = %d", f, c)
		}
	}
	if ChannelToFreq(0, Band2GHz) != 0 || ChannelToFreq(15, Band2GHz) != 0 || ChannelToFreq(234, Band6GHz) != 0 {
		t.Error("bad channels accepted")
	}
}
