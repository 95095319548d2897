package io.profilestore.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps every answer the API gave the tests of this JVM (method, path, status, content type, body) in
 * {@code target/api-answers-<pid>.jsonl}, for {@code OpenApiAnswersCheck}, which validates them all against the
 * OpenAPI document after the run.
 */
public final class ApiAnswers {

    /** Bodies longer than this are not kept (a batch of a hundred profiles says nothing more than one of ten). */
    static final int MAX_BODY = 256 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static BufferedWriter out;

    private ApiAnswers() {
    }

    /** @param path the path and query as sent; only the API's own (not the admin port's) are kept */
    public static synchronized void keep(String method, String path, int status, String contentType, String body) {
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        if (!bare.startsWith("/v1/") && !bare.equals("/openapi.json") || body != null && body.length() > MAX_BODY) {
            return;
        }
        try {
            if (out == null) {
                var file = Path.of(System.getProperty("profileStore.projectDir", "."), "target",
                        "api-answers-" + ProcessHandle.current().pid() + ".jsonl");
                Files.createDirectories(file.getParent());
                out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                Runtime.getRuntime().addShutdownHook(new Thread(ApiAnswers::close, "api-answers"));
            }
            var line = JSON.createObjectNode().put("method", method).put("path", bare).put("status", status)
                    .put("contentType", contentType).put("body", body);
            out.write(line.toString());
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static synchronized void close() {
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException ignored) {
            // the JVM is ending
        }
    }
}
