<?php echo "<p>File 1.</p>";
