package io.loadsmith.tester.result;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A test that writes a broken results.json on purpose: {@link ResultsJsonCheck} leaves its folders alone. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface InvalidResultsOnPurpose {
}
