package io.profilestore.resources;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@link ConditionalWrite} that, sent with {@code If-None-Match: *} instead of If-Match, creates the resource at the
 * pid of its path ({@code PUT /v1/profiles/{pid}}). {@link ConditionalWriteChecks} refuses If-None-Match elsewhere.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface CreatesAtPid {
}
