package ctl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestReplyRoundTrip(t *testing.T) {
	for name, r := range sampleReplies() {
		b, err := r.Encode()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		golden(t, "reply-"+name+".txt", b)
		got, err := DecodeReply(b)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, b)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("%s: decoded %+v, want %+v", name, got, r)
		}
		// JSON is the other face of the same records.
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Reply
		if err := json.Unmarshal(j, &back); err != nil || !reflect.DeepEqual(back, r) {
			t.Errorf("%s: JSON round trip: %v\n%s", name, err, j)
		}
	}
}

func TestPerACJSON(t *testing.T) {
	b, _ := json.Marshal(PerAC{1, -2, 3, 4})
	if string(b) != `{"VO":1,"VI":-2,"BE":3,"BK":4}` {
		t.Errorf("PerAC JSON %s", b)
	}
}

// Replies follow each other on one stream; each is read whole.
func TestReadReplyStream(t *testing.T) {
	var buf bytes.Buffer
	for _, name := range []string{"status", "error", "aql"} {
		r := sampleReplies()[name]
		r.WriteTo(&buf)
	}
	br := bufio.NewReaderSize(&buf, MaxReplyLine)
	for _, name := range []string{"status", "error", "aql"} {
		got, err := ReadReply(br)
		if err != nil || !reflect.DeepEqual(got, sampleReplies()[name]) {
			t.Errorf("%s: %+v, %v", name, got, err)
		}
	}
	if _, err := ReadReply(br); err != io.EOF {
		t.Errorf("after the last reply: %v, want io.EOF", err)
	}
}

func TestReplyDecodeErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"errno=0\n", "unexpected EOF"},
		{"section=status\nssid=\"x\"", "unexpected EOF"},
		{"errno=0\nx\n", "want an empty line after errno"},
		{"errno=x\n\n", `errno "x"`},
		{"bogus\n", "is not key=value"},
		{"ssid=\"x\"\nerrno=0\n\n", "outside a section"},
		{"section=radio\nerrno=0\n\n", `unknown section "radio"`},
		{"section=status\ncolour=blue\nerrno=0\n\n", `unknown key "colour"`},
		{"section=status\nssid=x\nerrno=0\n\n", "double-quoted"},
		{"section=status\nchannel=1.5\nerrno=0\n\n", "integer"},
		{"section=status\nwmm_enabled=1\nerrno=0\n\n", "true or false"},
		{"section=station\naid=70000\nerrno=0\n\n", "unsigned 16-bit"},
		{"section=station\nmac=02:00\nerrno=0\n\n", "six hex octets"},
		{"section=station\naql_pending_us=1 2 3\nerrno=0\n\n", "want 4 numbers"},
		{"section=status\nsection=status\nerrno=0\n\n", "second status"},
		{"section=ac\nerrno=0\n\n", "without a scheduler"},
		{"section=scheduler\nsection=ac\nac=VO\nerrno=0\n\n", "1 ac sections, want 4"},
		{"section=scheduler\nsection=ac\nac=VI\nsection=ac\nsection=ac\nsection=ac\nerrno=0\n\n", "order VO VI BE BK"},
		{"section=status\nerror=\"late\"\nerrno=0\n\n", "first line"},
		{"errno=0\n\nerrno=0\n\n", "data after the reply"},
		{"section=scan\nsection=scan\nerrno=0\n\n", "second scan"},
		{"section=rates\nsection=rates\nerrno=0\n\n", "second rates"},
		{"section=rate\nerrno=0\n\n", "rate section without a rates section"},
		{"section=rates\nsection=rate\nprob=NaN\nerrno=0\n\n", "finite number"},
		{"section=rates\nsection=rate\nprob=+Inf\nerrno=0\n\n", "finite number"},
		{"section=rates\nsection=rate\nprob=0.5x\nerrno=0\n\n", "finite number"},
		{"section=bss\nrates=1.0 HT\nerrno=0\n\n", `"HT": want a rate`},
		{"section=bss\nssid=x\nerrno=0\n\n", "double-quoted"},
		{"section=survey\nfreq=x\nerrno=0\n\n", "integer"},
		{strings.Repeat("section=survey\n", maxSurveys+1) + "errno=0\n\n", "more than 1024 survey"},
		{strings.Repeat("x", MaxReplyLine+1) + "\n", "too long"},
	} {
		_, err := DecodeReply([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

func TestReplyErr(t *testing.T) {
	r := Errorf(ENOENT, "station %s: not associated", "02:00:00:00:09:00")
	var e *Error
	if err := r.Err(); !errors.As(err, &e) || e.Errno != ENOENT || err.Error() != "station 02:00:00:00:09:00: not associated" {
		t.Errorf("Err() = %v", err)
	}
	if (&Reply{}).Err() != nil {
		t.Error("OK reply has an error")
	}
	if (&Error{Errno: EINVAL}).Error() != "invalid argument" {
		t.Error("bare errno message")
	}
}

// A float that is not finite cannot be sent: JSON could not carry it either.
func TestEncodeNonFinite(t *testing.T) {
	r := Reply{Rates: &RateTable{Rows: []RateStats{{TP: math.Inf(1)}}}}
	if _, err := r.Encode(); err == nil || !strings.Contains(err.Error(), "rate avg_tp_mbps: +Inf is not a finite number") {
		t.Errorf("encode +Inf: %v", err)
	}
}
