package io.profilestore.search;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * {@code search.numberKeys}, when given, can be read ({@link NumberKeys#parse}); the refusal says what is wrong with
 * it (an id, a key too short, not base64), never a key.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = ReadableNumberKeys.Check.class)
public @interface ReadableNumberKeys {

    String message() default "search.numberKeys cannot be read";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Check implements ConstraintValidator<ReadableNumberKeys, SearchSettings> {

        @Override
        public boolean isValid(SearchSettings settings, ConstraintValidatorContext context) {
            if (settings == null || settings.numberKeys == null || settings.numberKeys.isBlank()) {
                return true;
            }
            try {
                NumberKeys.parse(settings.numberKeys);
                return true;
            } catch (IllegalArgumentException e) {
                context.disableDefaultConstraintViolation();
                // the reason names ids and lengths only; braces and dollars would be read as a message template
                String reason = e.getMessage().replaceAll("[{}$\\\\]", "");
                context.buildConstraintViolationWithTemplate("search.numberKeys cannot be read: " + reason
                        + " (docs/security.md, Numbers in the index)").addConstraintViolation();
                return false;
            }
        }
    }
}
