package ctl

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/airq/airq/counter"
)

// Every counter of the table is a key of the status section, in the text
// form, in airqctl's key=value print and in JSON, with its own value, and
// comes back from each.
func TestStatusCarriesEveryCounter(t *testing.T) {
	if len(recStatus.byKey) != len(recStatus.fields) {
		t.Fatalf("%d status fields under %d keys: a counter key repeats another field's", len(recStatus.fields), len(recStatus.byKey))
	}
	s := sampleStatus()
	for id := range counter.NumIDs {
		s.Counters[id] = 1000 + uint64(id) // a value no other entry has
	}
	r := Reply{Status: s}
	text, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	printed := string(AppendStatus(nil, s))
	j, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(j, &obj); err != nil {
		t.Fatal(err)
	}
	for id := range counter.NumIDs {
		line := "\n" + id.Key() + "=" + strconv.FormatUint(s.Counters[id], 10) + "\n"
		if !strings.Contains(string(text), line) || !strings.Contains("\n"+printed, line) {
			t.Errorf("%s: no line %q in the reply or the status print", id, line[1:])
		}
		if v, ok := obj[id.Key()].(float64); !ok || v != float64(s.Counters[id]) {
			t.Errorf("%s: JSON has %v", id, obj[id.Key()])
		}
	}
	back, err := DecodeReply(text)
	if err != nil || !reflect.DeepEqual(back.Status, s) {
		t.Errorf("text round trip: %v\n%+v", err, back.Status)
	}
	var fromJSON Status
	if err := json.Unmarshal(j, &fromJSON); err != nil || !reflect.DeepEqual(&fromJSON, s) {
		t.Errorf("JSON round trip: %v\n%+v", err, fromJSON)
	}
}

// The JSON object lists the keys in the order of the text form.
func TestStatusJSONOrder(t *testing.T) {
	j, err := json.Marshal(sampleStatus())
	if err != nil {
		t.Fatal(err)
	}
	at := 0
	for _, f := range recStatus.fields {
		i := strings.Index(string(j), strconv.Quote(f.key)+":")
		if i < at {
			t.Fatalf("key %s out of order in %s", f.key, j)
		}
		at = i
	}
}

func TestStatusJSONErrors(t *testing.T) {
	var s Status
	if err := json.Unmarshal([]byte(`{"rx_frames":"many"}`), &s); err == nil || !strings.Contains(err.Error(), "rx_frames") {
		t.Errorf("a string counter: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"colour":"blue","rx_frames":3}`), &s); err != nil || s.Counters[counter.RxFrames] != 3 {
		t.Errorf("an unknown key: %v, rx_frames %d", err, s.Counters[counter.RxFrames])
	}
}
