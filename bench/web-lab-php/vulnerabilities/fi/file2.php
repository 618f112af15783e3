<?php echo "<p>File 2.</p>";
