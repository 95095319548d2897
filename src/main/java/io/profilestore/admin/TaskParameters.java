package io.profilestore.admin;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What a task's record shows of its parameters: every name, and a value only where the parameter is known to
 * carry nothing but a logger's name, a level, a duration or a switch, and the value is shaped like one. Anything
 * else a caller sends (a token by mistake, a name) stays out of the trail, whose readers are many.
 */
final class TaskParameters {

    /** Parameters whose values are harmless when shaped as expected: log-level's, and the switches of ours. */
    private static final Map<String, Pattern> HARMLESS = Map.of(
            "logger", Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]{0,99}(\\.[A-Za-z_$][A-Za-z0-9_$]{0,99}){0,20}"),
            "level", Pattern.compile("[A-Za-z]{1,10}"),
            "duration", Pattern.compile("[0-9]{1,9}(\\.[0-9]{1,9})?[A-Za-z ]{0,12}"),
            "dryRun", Pattern.compile("true|false"),
            "list", Pattern.compile("true|false"));

    private TaskParameters() {
    }

    /** {@code ?dryRun=true&level=INFO&note}: names sorted, each value shown or left out; empty without any. */
    static String described(Map<String, String[]> parameters) {
        if (parameters.isEmpty()) {
            return "";
        }
        var out = new StringBuilder();
        new TreeMap<>(parameters).forEach((name, values) -> {
            var shape = HARMLESS.get(name);
            boolean shown = false;
            for (String value : values == null ? new String[0] : values) {
                if (shape != null && value != null && shape.matcher(value).matches() && !looksLikeCredential(value)) {
                    out.append(out.length() == 0 ? '?' : '&').append(name).append('=').append(value);
                    shown = true;
                }
            }
            if (!shown) {
                out.append(out.length() == 0 ? '?' : '&').append(safeName(name));
            }
        });
        return out.toString();
    }

    /** An API key or a JWT's first part, which a logger-shaped value could otherwise be. */
    private static boolean looksLikeCredential(String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        return lower.startsWith("psk_") || value.startsWith("eyJ");
    }

    /** A name is the caller's text too: shown when it is a plain identifier, else as a mark of its length. */
    private static String safeName(String name) {
        return name.matches("[A-Za-z][A-Za-z0-9_.-]{0,63}") && !looksLikeCredential(name) ? name
                : "(a parameter of " + name.length() + " characters)";
    }
}
