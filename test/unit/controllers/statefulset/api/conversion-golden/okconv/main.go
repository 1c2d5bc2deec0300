// Golden generator: OpenKruise v1.9.0's own /convert (controller-runtime's conversion webhook over Kruise's scheme)
// answering a ConversionReview read from stdin; prints the response body.
package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http/httptest"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	"github.com/openkruise/kruise/apis"
)

func main() {
	scheme := runtime.NewScheme()
	if err := apis.AddToScheme(scheme); err != nil {
		panic(err)
	}
	h := conversion.NewWebhookHandler(scheme)
	body, _ := io.ReadAll(os.Stdin)
	req := httptest.NewRequest("POST", "/convert", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	fmt.Print(rec.Body.String())
}
